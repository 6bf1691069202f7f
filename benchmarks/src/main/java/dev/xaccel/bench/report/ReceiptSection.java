package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.xaccel.bench.run.SmallCase;

/**
 * Delivery receipts on the offload hop (issue 32): per concurrency of the top-level set, the receipts that came back
 * per offloaded request (the {@code /receipts} filter's MBean, read before and after each measurement: ~1.00 when
 * the transport works, so a broken one shows instead of a flattering CPU figure), and what the receipt path adds
 * to a request in µs of server CPU, the JVM and nginx apart, against setup 3 (the same hop without receipts) and
 * setup 12 (the bare servlet). The differences are taken round by round (same round, A − B), median (min–max).
 */
final class ReceiptSection {

    static final String SETUP = "receipts";

    private ReceiptSection() {
    }

    static String markdown(Measurements data) {
        StringBuilder rows = new StringBuilder();
        for (String w : data.workloads(SmallCase.PREFIX)) {
            Optional<SmallCase.Id> id = SmallCase.parse(w);
            if (id.isEmpty() || !id.get().topLevel() || !data.setups(w).contains(SETUP)) {
                continue;
            }
            double offloaded = data.sum(w, SETUP, "offloaded");
            double receipted = data.sum(w, SETUP, "receipted");
            double aborted = data.sum(w, SETUP, "aborted");
            rows.append("| ").append(SmallFileSection.concurrency(w)).append(" | ").append(Stats.fmt(offloaded, 0))
                    .append(" | ").append(Stats.fmt(receipted, 0)).append(" | ").append(Stats.fmt(aborted, 0))
                    .append(" | ")
                    .append(data.cell(w, SETUP, "receipted_per_offload", 3));
            for (String b : List.of("xaccel", "bare")) {
                for (String metric : List.of("jvm_us_per_req", "nginx_us_per_req")) {
                    rows.append(" | ").append(data.setups(w).contains(b)
                            ? Stats.cell(differences(data.byRound(w, SETUP, metric), data.byRound(w, b, metric)), 1)
                            : "–");
                }
            }
            rows.append(" |\n");
        }
        if (rows.length() == 0) {
            return "";
        }
        return "### Delivery receipts on the offload hop (issue 32)\n\n"
                + "Setup 16 is setup 3 with the filter's `receipts=<file>` (the run's receipt log) and "
                + "`docs/nginx/xaccel-receipts-file.conf.template` included in the internal location: nginx "
                + "logs one line per offloaded request, a 64 KiB buffer at a time (`flush=1s`), to the file the "
                + "filter reads and matches to its identifiers. Receipted per offload (complete + aborted "
                + "receipts ÷ `Offloaded`, the `/receipts` filter's MBean around each measurement, read once the "
                + "last lines came, at most 3 s after the client stopped) must be ~1.00, or the transport is broken "
                + "and the CPU figures flatter it. The CPU figures cover the client's seconds, as every setup's: "
                + "the last partial buffer (at most 64 KiB, about 1 % of a measurement's lines) is flushed and read "
                + "after them, and the harness's reads of the counters while it waits are not the receipt path's "
                + "(up to the full runs of 2026-12-07 07:09 they were counted: MBeans read every 20 ms, up to 3 s). "
                + "Of which aborted: the requests wrk leaves when it stops "
                + "(nginx's 499). A request whose client left before nginx had the offload answer is never "
                + "receipted (nginx ends it in the proxy location, not the internal one that logs the line): at "
                + "c=64 a few tens per measurement, reported `UNRECEIPTED` after `receiptTimeout`. Then the "
                + "receipt path's cost in µs of CPU per request, round by round: with receipts − without "
                + "(setup 3), and with receipts − the bare servlet (setup 12); the headline ratios above judge the "
                + "sum.\n\n"
                + "| concurrency | offloaded | receipted | of which aborted | receipted per offload "
                + "| JVM µs/req − xaccel | nginx µs/req − xaccel | JVM µs/req − bare | nginx µs/req − bare |\n"
                + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n" + rows + "\n";
    }

    /** A's value minus B's, for each round both were measured in. */
    static List<Double> differences(Map<Integer, Double> a, Map<Integer, Double> b) {
        List<Double> d = new ArrayList<>();
        a.forEach((round, v) -> {
            Double w = b.get(round);
            if (w != null) {
                d.add(v - w);
            }
        });
        return d;
    }
}
