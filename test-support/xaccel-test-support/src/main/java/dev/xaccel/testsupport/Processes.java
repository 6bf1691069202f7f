package dev.xaccel.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The servers' processes, handled by PID: run a command to its end, send a signal, and stop a process the way
 * a server wants (its own graceful signal first, then SIGTERM, then SIGKILL) together with whatever it started.
 */
public final class Processes {

    private Processes() {
    }

    /**
     * Runs the process {@code pb} describes to its end, its output (stdout and stderr) appended to {@code output}.
     *
     * @return the exit status, or empty when it had not ended within {@code timeout} (it is killed then)
     */
    public static Optional<Integer> run(ProcessBuilder pb, Path output, Duration timeout) throws IOException {
        Process p = pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                .start();
        try {
            if (p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return Optional.of(p.exitValue());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop(p.toHandle(), null, Duration.ZERO, Duration.ofSeconds(2));
        return Optional.empty();
    }

    /** Sends {@code signal} ({@code QUIT}, {@code HUP}, ...: what {@code kill -SIGNAL} takes); whether kill did. */
    public static boolean signal(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the process has ended within {@code timeout}. */
    public static boolean awaitExit(ProcessHandle p, Duration timeout) {
        try {
            p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        } catch (ExecutionException | TimeoutException e) {
            return !p.isAlive();
        }
    }

    /**
     * Stops {@code p} and its descendants (as they are now, e.g. nginx's workers): {@code gracefulSignal} (none
     * when null) and up to {@code graceful} for it to take effect, then SIGTERM and up to {@code term}, then
     * SIGKILL; descendants still alive after that are SIGKILLed too. Returns once all of them have ended (or a
     * KILL did not take effect within two seconds).
     *
     * @return whether {@code p} ended before SIGKILL
     */
    public static boolean stop(ProcessHandle p, String gracefulSignal, Duration graceful, Duration term) {
        List<ProcessHandle> descendants = p.descendants().toList();
        boolean clean = true;
        if (p.isAlive()) {
            boolean ended = gracefulSignal != null && signal(p.pid(), gracefulSignal) && awaitExit(p, graceful);
            if (!ended) {
                p.destroy();
                ended = awaitExit(p, term);
            }
            if (!ended) {
                p.destroyForcibly();
                awaitExit(p, Duration.ofSeconds(2));
                clean = false;
            }
        }
        for (ProcessHandle d : descendants) {
            if (d.isAlive()) {
                d.destroyForcibly();
                awaitExit(d, Duration.ofSeconds(2));
            }
        }
        return clean;
    }

    /** {@link #stop(ProcessHandle, String, Duration, Duration)} of a PID that may have ended already. */
    public static boolean stop(long pid, String gracefulSignal, Duration graceful, Duration term) {
        return ProcessHandle.of(pid).map(p -> stop(p, gracefulSignal, graceful, term)).orElse(true);
    }

    /** Whether the PID belongs to a live process. */
    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
