package dev.xaccel.bench.run;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The run's expected duration, computed from the options before anything starts (printed at the start, so that a
 * change of the matrix shows its cost at once): the wrk and curl durations the options ask for, plus what each
 * measurement costs around them (starting the client, reading /proc and Tomcat's counters), and the large downloads
 * at rates near those of earlier full runs on the 2-core machine. An estimate on an idle machine: a busy one takes
 * longer.
 */
public final class RunPlan {

    /** Seconds around one wrk or curl measurement: the client's start, /proc, Tomcat's counters, the log. */
    static final double OVERHEAD = 0.15;
    /** Seconds to start the servers, read the data (write it the first time) and check every setup. */
    static final double START = 15;
    /**
     * The JMH run and HotPathCounts (strace) of a full run, and of {@code --quick}, in seconds (+10 s for the
     * mapped-receipts mode's loop and its two traced runs, +8 s for {@code offloadInPlace}).
     */
    static final double JMH_FULL = 198;
    static final double JMH_QUICK = 8;
    /** Seconds to start the virtual-thread Tomcat and its slow clients' settling. */
    static final double THREADS_START = 8;
    /** Seconds a receipts measurement waits for nginx's last buffered lines ({@code flush=1s}) to be read. */
    static final double RECEIPT_FLUSH = 1.2;
    /** Warm-up sweeps a full run usually takes before the JIT has settled (at most Warmup.MAX_SWEEPS). */
    static final int WARMUP_SWEEPS = 2;
    /** Seconds of perf's own work (perf script, perf report) per profiled setup. */
    static final double PERF_REPORT = 3;

    private RunPlan() {
    }

    /** Expected seconds per part of the run, in the run's order; the parts the options leave out are absent. */
    public static Map<String, Double> seconds(BenchOptions o) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("start and checks", START);
        int small = SmallPlan.measurementsPerRound(o);
        if (o.warmup()) {
            // sweeps until the JIT settles (Warmup): its ~20 s of compiling take two sweeps of every setup
            double w = WARMUP_SWEEPS * o.setups().size() * (o.warmupSeconds() + OVERHEAD);
            if (o.wants(WorkloadKind.LARGE)) {
                w += o.largeSetups().stream().mapToDouble(s -> download(o.bigBytes(), s)).sum();
            }
            m.put("warm-up", w);
        }
        if (o.wants(WorkloadKind.LARGE)) {
            double round = 0;
            for (Setup s : o.largeSetups()) {
                round += download(o.seq() * o.bigBytes(), s) + download(
                        (long) o.parallel() * o.parallelEach() * o.bigBytes(), s) + 2 * OVERHEAD;
            }
            m.put("large", round * o.runs());
        }
        if (o.wants(WorkloadKind.SMALL)) {
            int receipts = SmallPlan.receiptMeasurementsPerRound(o);
            m.put("small", (small * (o.wrkSeconds() + OVERHEAD) + receipts * RECEIPT_FLUSH) * o.runs());
        }
        if (o.wants(WorkloadKind.ACCEPT)) {
            double one = o.acceptSeconds() + OVERHEAD;
            int shapes = o.quick() ? 2 : 4;
            double accept = 2 * 2 * (o.acceptConcurrencies().size() * one + o.floodSettle().toMillis() / 1000.0
                    + 0.2);
            double seed001 = shapes * 2 * (one + 0.1);
            double traced = o.quick() ? 0 : 4 * 2 * (2 + 1.5);
            m.put("accept + seed 001", (accept + seed001) * o.sideRuns() + traced);
        }
        if (o.wants(WorkloadKind.THREADS) && (!o.quick() || o.workloads().size() == 1)) {
            m.put("threads", THREADS_START + 2 * 2 * (o.wrkSeconds() + OVERHEAD + 1) * o.sideRuns());
        }
        if (o.wants(WorkloadKind.SMALL) && o.profile() != BenchOptions.Profile.OFF) {
            m.put("perf", o.setups().size() * (o.wrkSeconds() + PERF_REPORT));
        }
        if (o.wants(WorkloadKind.JMH)) {
            m.put("jmh", o.quick() ? JMH_QUICK : JMH_FULL);
        }
        return m;
    }

    /** The expected total in seconds. */
    public static double total(BenchOptions o) {
        return seconds(o).values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** "about 31 min (large 4.3, small 17.0, ...)" for the start of the run. */
    public static String describe(BenchOptions o) {
        StringBuilder sb = new StringBuilder();
        seconds(o).forEach((part, s) -> sb.append(sb.length() == 0 ? "" : ", ").append(part).append(' ')
                .append(s >= 120 ? String.format(Locale.ROOT, "%.1f min", s / 60) : Math.round(s) + " s"));
        double t = total(o);
        return (t >= 120 ? String.format(Locale.ROOT, "about %.0f min", t / 60) : "about " + Math.round(t) + " s")
                + " after the build on an idle 2-core machine (" + sb + ")";
    }

    /** Seconds to download {@code bytes} from a setup, at about the rate of earlier full runs here. */
    private static double download(long bytes, Setup s) {
        double mbps = switch (s) {
            case REMOTE_DIRECT -> 450;
            case PROXIED -> 1200;
            case REMOTE_OFFLOAD, STORE -> 1700;
            default -> 2500;
        };
        return bytes / 1e6 / mbps;
    }
}
