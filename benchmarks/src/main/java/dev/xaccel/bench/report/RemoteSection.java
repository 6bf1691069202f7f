package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The remote setups (9)–(11), round by round: offload over its limit (the same presigned GET through the same
 * nginx location without the application) and the filter's own streaming over offload, for every workload that
 * measured them.
 */
final class RemoteSection {

    private static final String NOTE = "The same files as objects of an S3-compatible store (s3proxy 2.6.0, "
            + "jclouds' filesystem backend, V4 signatures, a JVM of its own on loopback, uploaded by presigned PUTs). "
            + "(9) remote-offload: nginx → the application (token check, a GET presigned for 10 s per request) → "
            + "`X-Accel-Redirect: /_xaccel/remote/…` → nginx fetches the object from the store through the internal "
            + "location of `docs/nginx/xaccel-remote.conf.template` (verbatim); (10) remote-direct: "
            + "a client talking to "
            + "Tomcat, the filter streams the object from the store itself; (11) store: the limit of (9), a GET "
            + "presigned once for the run sent through the very same nginx location (a `rewrite` into it), without "
            + "the application: what nginx proxying the store costs, so (9) / (11) is the price of the authorization "
            + "round trip and the presign. Ratios of the two setups' values round by round (median, min–max). The "
            + "store itself, not nginx or the filter, bounds all three on one machine: its CPU competes with theirs.";

    /** One row: its label, and the workload and metric it compares. */
    private record Row(String label, String workload, String metric) {
    }

    private RemoteSection() {
    }

    static String markdown(Measurements data, Meta meta) {
        List<Row> rows = new ArrayList<>();
        for (String w : data.workloads("large-")) {
            rows.add(new Row(meta.label(w) + ", MB/s", w, "MBps"));
        }
        for (String w : data.workloads("small-")) {
            rows.add(new Row("Small files, concurrency " + SmallFileSection.concurrency(w) + ", requests/s", w, "rps"));
        }
        rows.removeIf(r -> !data.setups(r.workload()).contains("remote-offload"));
        if (rows.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Remote objects (S3 store)\n\n").append(NOTE).append("\n\n")
                .append("| workload | remote-offload / store | remote-direct / remote-offload |\n|---|---:|---:|\n");
        for (Row r : rows) {
            md.append("| ").append(r.label()).append(" | ")
                    .append(data.roundRatios(r.workload(), r.metric(), "remote-offload", "store").cell()).append(" | ")
                    .append(data.roundRatios(r.workload(), r.metric(), "remote-direct", "remote-offload").cell())
                    .append(" |\n");
        }
        return md.append('\n').toString();
    }
}
