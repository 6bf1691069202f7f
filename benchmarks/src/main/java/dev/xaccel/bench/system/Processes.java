package dev.xaccel.bench.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.run.BenchFailure;

/**
 * Starts the run's external processes and stops every one of them by PID: when asked, and at the latest from a
 * shutdown hook, also when the run fails or is interrupted (Ctrl-C). Stopping sends SIGTERM, waits up to
 * {@value #GRACE_SECONDS} s (by default), then SIGKILLs the process and whatever it started that is still alive.
 */
public final class Processes implements AutoCloseable {

    static final int GRACE_SECONDS = 5;

    private final Duration grace;

    /** What a process printed (stdout and stderr together) and its exit code. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private final List<ProcessHandle> running = new ArrayList<>();
    private final Thread hook = new Thread(this::shutDown, "bench-cleanup");
    private volatile boolean shuttingDown;

    public Processes() {
        this(Duration.ofSeconds(GRACE_SECONDS));
    }

    /** With another time between SIGTERM and SIGKILL. */
    public Processes(Duration grace) {
        this.grace = grace;
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts a background process whose output goes to {@code log}. */
    public Process start(List<String> command, Map<String, String> env, Path log) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return track(pb, command);
    }

    /** Runs a process to its end and returns its output; the process is stopped if the run is interrupted. */
    public Result run(List<String> command, Map<String, String> env) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        return toEnd(pb, command);
    }

    public Result run(List<String> command) {
        return run(command, Map.of());
    }

    /** Runs a process to its end and returns what it wrote to stdout; its stderr is discarded. */
    public String stdout(List<String> command) {
        return toEnd(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD), command).output();
    }

    private Result toEnd(ProcessBuilder pb, List<String> command) {
        Process p = track(pb, command);
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), out);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the output of " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted while running " + command.get(0));
        } finally {
            forget(p.toHandle());
        }
    }

    /**
     * Takes a process started elsewhere (the shared {@code NginxServer}'s nginx) into the run's processes: it is
     * stopped with them, at the latest by the shutdown hook (Ctrl-C). A PID that has ended already is ignored.
     */
    public void adopt(long pid) {
        ProcessHandle.of(pid).ifPresent(p -> {
            synchronized (running) {
                running.add(p);
            }
        });
    }

    /**
     * The run's own processes now: this one, what it started or adopted, and their descendants (nginx's workers, the
     * clients). What else uses CPU meanwhile is another's ({@link OtherCpu}).
     */
    public Set<Long> ours() {
        Set<Long> pids = new HashSet<>();
        List<ProcessHandle> roots = new ArrayList<>();
        roots.add(ProcessHandle.current());
        synchronized (running) {
            roots.addAll(running);
        }
        for (ProcessHandle root : roots) {
            pids.add(root.pid());
            root.descendants().forEach(d -> pids.add(d.pid()));
        }
        ProcessHandle.current().parent().ifPresent(p -> pids.add(p.pid()));
        return pids;
    }

    /** Waits for a background process to end by itself (its output is in its log), then forgets it. */
    public int await(Process p) {
        try {
            return p.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted while waiting for pid " + p.pid());
        } finally {
            forget(p.toHandle());
        }
    }

    /**
     * SIGTERM, up to the grace time, then SIGKILL for the process and its remaining descendants (the shared
     * {@link dev.xaccel.testsupport.Processes#stop(ProcessHandle, String, Duration, Duration)}); then forgets it.
     */
    void stop(ProcessHandle p) {
        dev.xaccel.testsupport.Processes.stop(p, null, Duration.ZERO, grace);
        forget(p);
    }

    public void stop(Process p) {
        stop(p.toHandle());
    }

    /** Stops everything still running, the most recently started first. */
    void stopAll() {
        List<ProcessHandle> all;
        synchronized (running) {
            all = new ArrayList<>(running);
        }
        for (int i = all.size() - 1; i >= 0; i--) {
            stop(all.get(i));
        }
    }

    /** True once the JVM is shutting down (Ctrl-C, SIGTERM): failures of processes stopped by it are expected. */
    public boolean shuttingDown() {
        return shuttingDown;
    }

    private void shutDown() {
        shuttingDown = true;
        stopAll();
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook runs (or ran) stopAll itself
        }
    }

    private Process track(ProcessBuilder pb, List<String> command) {
        try {
            Process p = pb.start();
            synchronized (running) {
                running.add(p.toHandle());
            }
            return p;
        } catch (IOException e) {
            throw new BenchFailure("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
    }

    private void forget(ProcessHandle p) {
        synchronized (running) {
            running.remove(p);
        }
    }
}
