package dev.xaccel.bench.setup;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import dev.xaccel.bench.client.Curl;
import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.client.Wrk;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.FileSet;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.BareAccelServlet;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.CpuTicks;
import dev.xaccel.bench.system.LoadWatch;
import dev.xaccel.bench.system.Processes;

/**
 * Everything a check or a workload works with once the servers are up: the options, the servers and where they
 * serve, the clients (HTTP, curl, wrk), the token, the data, and where the measurements go.
 *
 * @param options    the command line
 * @param processes  every process of the run
 * @param http       HTTP client for checks and stats
 * @param tomcat     the BenchServer JVM of every setup but the hop's
 * @param hop        the hop's BenchServer JVM ({@link Setup#HOP})
 * @param nginx      the benchmark's nginx
 * @param endpoints  where each setup serves the data
 * @param stats      {@code tomcat}'s counters
 * @param hopStats   {@code hop}'s counters
 * @param data       the files served
 * @param token      the bearer token the auth filter accepts
 * @param work       the run's scratch directory (logs, downloads for checks)
 * @param wrk        the small-file load generator
 * @param curl       the large-file downloader
 * @param results    the raw measurements
 * @param load       the load average watch
 * @param clockTicks clock ticks per second of /proc/<pid>/stat
 * @param java       the java binary for the helper JVMs
 * @param classPath  their class path (this module and its dependencies)
 * @param store      the S3 store of the remote setups, or null when none of them runs
 * @param secret     the run's secret: the signed links' and the bare servlet's gate ({@link BareAccelServlet})
 * @param pinning    the client's and the servers' CPUs (a server a workload starts goes through it)
 */
public record BenchRig(BenchOptions options, Processes processes, Http http, TomcatServer tomcat, TomcatServer hop,
        BenchNginx nginx, Endpoints endpoints, BenchStats stats, BenchStats hopStats, DataSet data, String token,
        Path work, Wrk wrk, Curl curl, RawResults results, LoadWatch load, int clockTicks, String java,
        String classPath, BenchStore store, String secret, CpuPinning pinning) {

    /** The header that passes the token. */
    public String[] auth() {
        return new String[] {"Authorization", "Bearer " + token};
    }

    /** The BenchServer that serves setup {@code s}'s requests. */
    public TomcatServer server(Setup s) {
        return Setup.HOP.contains(s) ? hop : tomcat;
    }

    /** The counters of the BenchServer that serves setup {@code s}. */
    public BenchStats stats(Setup s) {
        return Setup.HOP.contains(s) ? hopStats : stats;
    }

    /**
     * Both BenchServer JVMs' CPU: a measurement counts the idle one's too (its pollers' wake-ups), the same for
     * every setup, so that nothing the servers do escapes the figure.
     */
    public long jvmTicks() {
        return CpuTicks.of(List.of(tomcat.pid(), hop.pid()));
    }

    /**
     * The BenchServer JVMs' JIT compiler threads' CPU ({@code C1 CompilerThre}, {@code C2 CompilerThre}: HotSpot's
     * names, cut to 15 characters). Part of {@link #jvmTicks()}; a small-file measurement counts it apart, because
     * the compilers work off their queue in whichever setup's seconds it reaches.
     */
    public long jitTicks() {
        return jit(tomcat) + jit(hop);
    }

    private static long jit(TomcatServer server) {
        return CpuTicks.ofThreads(server.pid(), n -> n.equals("C1 CompilerThre") || n.equals("C2 CompilerThre"));
    }

    public long nginxTicks() {
        return CpuTicks.of(nginx.pids());
    }

    /** One wrk run of a setup's small files (or its URL list). */
    public Wrk.Result wrk(Setup s, int concurrency, int seconds) {
        Optional<Path> urls = endpoints.urlList(s);
        return wrk.run(endpoints.base(s), concurrency, seconds, urls);
    }

    /** One wrk run of a setup through a set of files (the setups with a URL list serve only the main set). */
    public Wrk.Result wrk(Setup s, FileSet files, int concurrency, int seconds) {
        Optional<Path> urls = endpoints.urlList(s);
        if (files.deep() && urls.isPresent()) {
            throw new IllegalArgumentException("setup " + s.id() + " serves only the files of its URL list");
        }
        return wrk.run(endpoints.base(s), files, concurrency, seconds, urls);
    }

    public double seconds(long ticks) {
        return (double) ticks / clockTicks;
    }
}
