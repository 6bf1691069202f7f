package dev.xaccel.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.xaccel.bench.check.HopChecks;
import dev.xaccel.bench.check.SetupChecks;
import dev.xaccel.bench.check.SignedLinkChecks;
import dev.xaccel.bench.client.Curl;
import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.client.Wrk;
import dev.xaccel.bench.reliability.ReliabilityRun;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.RawResults;
import dev.xaccel.bench.run.RunPlan;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.UsageException;
import dev.xaccel.bench.run.WorkloadKind;
import dev.xaccel.bench.setup.BenchNginx;
import dev.xaccel.bench.setup.BenchRemoteConf;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.setup.BenchStore;
import dev.xaccel.bench.setup.DataSet;
import dev.xaccel.bench.setup.Endpoints;
import dev.xaccel.bench.setup.TomcatServer;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.LoadWatch;
import dev.xaccel.bench.system.Machine;
import dev.xaccel.bench.system.OtherCpu;
import dev.xaccel.bench.system.Processes;
import dev.xaccel.bench.workload.AcceptFilterWorkload;
import dev.xaccel.bench.workload.JmhWorkload;
import dev.xaccel.bench.workload.LargeFileWorkload;
import dev.xaccel.bench.workload.PerfProfile;
import dev.xaccel.bench.workload.SmallFileWorkload;
import dev.xaccel.bench.workload.VirtualThreadsWorkload;
import dev.xaccel.bench.workload.Warmup;
import dev.xaccel.bench.workload.Workload;
import dev.xaccel.testsupport.TestPaths;

/**
 * benchmarks/run: Tomcat streaming vs nginx-proxied streaming vs xaccel (X-Accel-Redirect) vs nginx static vs
 * Tomcat's DefaultServlet, cached authorization decisions and signed links (small files), plus accept filters and
 * a JMH run of the filter's hot path. Everything runs on 127.0.0.1; everything started here is stopped on exit,
 * also on failure or Ctrl-C. Any wrong answer stops the run with exit code 1; a bad command line exits with 2.
 * <p>
 * The wrapper script builds this module and starts this class with {@code -Dbench.dir=<benchmarks/>} (and, for the
 * report, {@code -Dbench.startEpoch} and {@code -Dbench.loadBefore} from before the build).
 */
public final class BenchDriver {

    private final BenchOptions options;
    private final Path benchDir;
    private final Path root;
    private final Path work;
    private final Processes processes;

    private BenchDriver(BenchOptions options, Path benchDir, Processes processes) {
        this.options = options;
        this.benchDir = benchDir;
        this.root = benchDir.getParent();
        this.work = benchDir.resolve("work/run");
        this.processes = processes;
    }

    public static void main(String[] args) {
        Path benchDir = Path.of(System.getProperty("bench.dir", "benchmarks")).toAbsolutePath().normalize();
        if (ReliabilityRun.requested(args)) {
            System.exit(ReliabilityRun.run(args, benchDir));
            return;
        }
        BenchOptions options;
        try {
            options = BenchOptions.parse(args, benchDir);
        } catch (UsageException e) {
            System.err.println("benchmarks/run: " + e.getMessage());
            System.err.print(BenchOptions.usage());
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.print(BenchOptions.usage());
            return;
        }
        Processes processes = new Processes();
        try (processes) {
            new BenchDriver(options, benchDir, processes).run();
        } catch (RuntimeException e) {
            if (processes.shuttingDown()) {
                Log.info("interrupted: stopped everything this run started; logs in " + benchDir.resolve("work/run"));
                return; // the JVM exits with the signal's status (130 for Ctrl-C)
            }
            Log.failed(e instanceof BenchFailure ? e.getMessage()
                    : e + (e.getCause() == null ? "" : " (" + e.getCause() + ")"));
            Log.info("exit 1; logs in " + benchDir.resolve("work/run"));
            System.exit(1);
        }
        System.exit(0);
    }

    private void run() {
        long start = Long.getLong("bench.startEpoch", ProcessHandle.current().info().startInstant()
                .map(i -> i.getEpochSecond()).orElse(System.currentTimeMillis() / 1000));
        String loadBefore = System.getProperty("bench.loadBefore", Machine.loadAverages());
        Log.info("load average before the run: " + loadBefore + " (nproc " + Machine.cores() + ")");
        Log.info("setups' order shuffled per round with seed " + options.seed() + " (--seed " + options.seed()
                + " measures in the same order again)");
        Log.info("expected duration: " + RunPlan.describe(options));
        if (!Machine.isLinux()) {
            Log.info("not Linux: /proc CPU accounting and TCP_DEFER_ACCEPT need Linux");
        }
        prepareDirectories();
        // before any server starts: the driver and every client it starts on the client's CPU
        CpuPinning pinning = CpuPinning.of(options.pin());
        Log.info("CPU pinning: " + pinning.describe());
        pinning.pinClient(processes);
        // shared by nginx's secure_link_md5 and the filter (signedLinkSecret); blanked in the results
        String secret = secret();
        BenchRig rig = startServers(new LoadWatch(loadBefore, new OtherCpu(processes::ours)), secret, pinning);
        SetupChecks.verify(rig);
        HopChecks.verify(rig, secret);
        Log.info("all setups answer correctly (offload verified, auth verified)");
        RunReport.Outcome outcome = measure(rig, start);
        Path md = new RunReport(rig, root, secret).write(outcome);
        String name = md.getFileName().toString().replaceFirst("\\.md$", "");
        Log.info("results: " + md + " (chart " + name + ".svg, raw " + name + ".tsv); measurements "
                + (outcome.measureEndSeconds() - outcome.measureStartSeconds()) + " s, total "
                + (System.currentTimeMillis() / 1000 - start) + " s");
    }

    /** The data, the two BenchServer JVMs and nginx, and the clients: everything the checks and workloads use. */
    private BenchRig startServers(LoadWatch load, String secret, CpuPinning pinning) {
        DataSet data = DataSet.prepare(benchDir.resolve("work/data/files"), options.bigBytes(), options.smallCount(),
                options.smallBytes(), options.size(), options.fileSets().subList(1, options.fileSets().size()));
        String token = "bench-" + Math.abs(new SecureRandom().nextLong());
        Http http = new Http();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        Path links = work.resolve("signed-links.txt");
        // the remote setups' S3 store, only when one of them runs (its data in the data directory, kept); it
        // starts while Tomcat does
        BenchStore.Starting starting = options.setups().stream().anyMatch(Setup.REMOTE::contains)
                ? BenchStore.start(processes, java, root.resolve("test-support/xaccel-test-store/target"),
                        benchDir.resolve("work/data/store"), work, dev.xaccel.testsupport.Ports.freeLoopbackPort(),
                        secret().replace('/', '_'), pinning) : null;
        BenchStore store = starting == null ? null : starting.store();
        Path logging = benchDir.resolve("src/main/resources/bench-logging.properties");
        TomcatServer tomcat = TomcatServer.start(processes, new TomcatServer.Launch(TomcatServer.Role.APPLICATION,
                java, options.jvmOptions(), classPath, logging, data.dir(), work, token, secret, links,
                TomcatServer.acceptFilterProtocol(), options.deferSeconds(), store, pinning));
        // the hop's setups in a JVM of their own: the hop as one application behind nginx pays for it
        TomcatServer hop = TomcatServer.start(processes, new TomcatServer.Launch(TomcatServer.Role.HOP, java,
                options.jvmOptions(), classPath, logging, data.dir(), work, token, secret, null, null,
                options.deferSeconds(), null, pinning));
        if (starting != null) {
            starting.await(data);
        }
        BenchNginx nginx = BenchNginx.start(processes, new BenchNginx.Launch(root.resolve("docs/nginx"),
                work.resolve("nginx"), tomcat.port(), hop.port(), data.dir(), secret, store == null ? 0
                        : store.port(), hop.receiptsFile(), pinning));
        if (!tomcat.hasXaccelConnector() && options.has(Setup.TOMCAT)) {
            throw new BenchFailure("setup tomcat needs the xaccel connector (xaccel-tomcat-connector), which this "
                    + "build lacks");
        }
        Endpoints endpoints = new Endpoints(tomcat.port(), tomcat.directPort(), nginx.ports(), links);
        if (store != null) {
            endpoints.store(store.baselineQueries(data, BenchRemoteConf.STORE_PREFIX, work.resolve("store-links.txt")),
                    work.resolve("store-links.txt"));
        }
        BenchRig rig = new BenchRig(options, processes, http, tomcat, hop, nginx, endpoints,
                new BenchStats(http, tomcat.port()), new BenchStats(http, hop.port()), data, token, work,
                new Wrk(processes, work, token, options.mainSet()), new Curl(processes, token),
                new RawResults(work.resolve("raw.tsv")), load, Machine.clockTicks(processes), java, classPath, store,
                secret, pinning);
        int signed = SignedLinkChecks.links(rig).size();
        if (signed != options.smallCount()) {
            throw new BenchFailure("BenchServer wrote " + signed + " signed links, not " + options.smallCount());
        }
        return rig;
    }

    /** The warm-up and the workloads asked for, in their order. */
    private RunReport.Outcome measure(BenchRig rig, long start) {
        if (options.warmup()) {
            new Warmup().run(rig);
        }
        long measureStart = System.currentTimeMillis() / 1000;
        AcceptFilterWorkload accept = new AcceptFilterWorkload();
        PerfProfile perf = new PerfProfile();
        JmhWorkload jmh = new JmhWorkload();
        Map<Workload, Boolean> plan = new LinkedHashMap<>();
        plan.put(new LargeFileWorkload(), options.wants(WorkloadKind.LARGE));
        plan.put(new SmallFileWorkload(), options.wants(WorkloadKind.SMALL));
        plan.put(accept, options.wants(WorkloadKind.ACCEPT));
        VirtualThreadsWorkload threads = new VirtualThreadsWorkload();
        plan.put(threads, options.wants(WorkloadKind.THREADS)
                && (!options.quick() || options.workloads().size() == 1)); // --quick: only when asked alone
        plan.put(perf, options.wants(WorkloadKind.SMALL) && profileWanted());
        plan.put(jmh, options.wants(WorkloadKind.JMH));
        plan.forEach((workload, wanted) -> {
            if (wanted) {
                workload.run(rig);
            }
        });
        return new RunReport.Outcome(start, measureStart, System.currentTimeMillis() / 1000, accept.note(),
                jmh.csv(), perf.text(), threads.note());
    }

    /** --profile: perf must work; default: when it works; --no-profile and --quick: never. */
    private boolean profileWanted() {
        if (options.profile() == BenchOptions.Profile.OFF) {
            return false;
        }
        if (PerfProfile.usable(processes, work)) {
            return true;
        }
        if (options.profile() == BenchOptions.Profile.ON) {
            throw new BenchFailure("--profile: perf record does not work here");
        }
        Log.info("perf not usable here; no profile");
        return false;
    }

    private void prepareDirectories() {
        try {
            TestPaths.deleteRecursively(work);
            Files.createDirectories(work);
            Files.createDirectories(options.outDir());
        } catch (IOException e) {
            throw new UncheckedIOException("preparing " + work, e);
        }
    }

    /** 48 characters of base64 from 36 random bytes. */
    private static String secret() {
        byte[] b = new byte[36];
        new SecureRandom().nextBytes(b);
        return Base64.getEncoder().encodeToString(b);
    }
}
