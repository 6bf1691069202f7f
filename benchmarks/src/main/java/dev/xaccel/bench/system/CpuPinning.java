package dev.xaccel.bench.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Collectors;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;

/**
 * The split of the CPUs between the load and the servers, the same for every setup: the client (the driver JVM
 * itself and so whatever it starts: wrk, curl, the Java flood and slow clients, JMH) on the first CPU this process
 * may use, the servers (the BenchServer JVMs, nginx's master and workers, the S3 store) on the others, with
 * {@code taskset}. Without it the client takes a core's worth of time from the servers in some rounds and not in
 * others, and moves the ratios between runs by more than the effects they judge (issue 34). Off with
 * {@code --no-pin}, and by itself, with a note, on a 1-CPU machine or without {@code taskset}.
 */
public final class CpuPinning {

    private final List<Integer> client;
    private final List<Integer> servers;
    private final String note;

    private CpuPinning(List<Integer> client, List<Integer> servers, String note) {
        this.client = List.copyOf(client);
        this.servers = List.copyOf(servers);
        this.note = note;
    }

    /** No pinning, for the reason given. */
    public static CpuPinning off(String why) {
        return new CpuPinning(List.of(), List.of(), "off: " + why);
    }

    /**
     * The split for CPUs {@code allowed} (this process's affinity, ascending): the first for the client, the rest for
     * the servers; off with fewer than two or without {@code taskset}.
     */
    static CpuPinning split(boolean wanted, List<Integer> allowed, boolean taskset) {
        if (!wanted) {
            return off("--no-pin");
        }
        if (allowed.size() < 2) {
            return off(allowed.size() + " CPU: the client and the servers share it");
        }
        if (!taskset) {
            return off("taskset not found (util-linux): the client and the servers share the CPUs");
        }
        List<Integer> s = allowed.subList(1, allowed.size());
        return new CpuPinning(List.of(allowed.get(0)), s, "client (driver, wrk, curl) on CPU " + allowed.get(0)
                + ", servers (Tomcat, nginx, store) on CPU " + list(s) + " (taskset)");
    }

    /** This machine's split; {@code wanted} false: off. */
    public static CpuPinning of(boolean wanted) {
        return split(wanted, allowed(), Files.isExecutable(Path.of("/usr/bin/taskset"))
                || Files.isExecutable(Path.of("/bin/taskset")));
    }

    public boolean on() {
        return !servers.isEmpty();
    }

    /** For the report and the log: who runs where, or why nothing is pinned. */
    public String describe() {
        return note;
    }

    /** {@code command} to start a server: on the servers' CPUs when pinned, else as it is. */
    public List<String> server(List<String> command) {
        if (!on()) {
            return command;
        }
        List<String> l = new ArrayList<>(List.of("taskset", "-c", list(servers)));
        l.addAll(command);
        return l;
    }

    /**
     * This JVM, every thread (and so every process and thread it starts later), on the client's CPU. Before any
     * server starts: the servers' own affinity then comes from {@link #server}.
     */
    public void pinClient(Processes processes) {
        if (on()) {
            pin(processes, ProcessHandle.current().pid(), client);
        }
    }

    /** Processes already running (nginx's master and workers) onto the servers' CPUs, every thread. */
    public void pinServers(Processes processes, List<Long> pids) {
        if (on()) {
            for (long pid : pids) {
                pin(processes, pid, servers);
            }
        }
    }

    private static void pin(Processes processes, long pid, List<Integer> cpus) {
        Processes.Result r = processes.run(List.of("taskset", "-a", "-p", "-c", list(cpus), Long.toString(pid)));
        if (!r.ok()) {
            throw new BenchFailure("taskset -a -p -c " + list(cpus) + " " + pid + " failed: " + r.output().strip());
        }
    }

    /** The CPUs this process may run on (/proc/self/status Cpus_allowed_list), else 0 .. nproc-1. */
    static List<Integer> allowed() {
        try {
            Optional<String> line = Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst();
            if (line.isPresent()) {
                return parse(line.get().substring(line.get().indexOf(':') + 1));
            }
        } catch (IOException | IllegalArgumentException e) {
            Log.info("CPU affinity unreadable (" + e.getMessage() + "): assuming CPUs 0-"
                    + (Runtime.getRuntime().availableProcessors() - 1));
        }
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            l.add(i);
        }
        return l;
    }

    /** {@code 0-2,5} → [0, 1, 2, 5]. */
    static List<Integer> parse(String cpuList) {
        TreeSet<Integer> s = new TreeSet<>();
        for (String part : cpuList.strip().split(",")) {
            if (part.isBlank()) {
                continue;
            }
            String[] r = part.strip().split("-");
            try {
                int lo = Integer.parseInt(r[0]);
                int hi = r.length > 1 ? Integer.parseInt(r[1]) : lo;
                for (int i = lo; i <= hi; i++) {
                    s.add(i);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list: '" + cpuList.strip() + "'", e);
            }
        }
        return List.copyOf(s);
    }

    /** [1, 2, 3] → {@code 1,2,3} (taskset -c's form). */
    static String list(List<Integer> cpus) {
        return cpus.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
