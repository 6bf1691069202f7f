package dev.xaccel.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The filter's own cost, without network or container: JMH's results (ns/op of each benchmark), and per offloaded
 * request (workload {@code hotpath}) the CPU time (beside JMH's figure of the same call), the bytes allocated and the
 * file-system calls against the targets of issue 15; {@code mapped-receipts} beside {@code mapped} is what delivery
 * receipts add to the filter's call (issue 32).
 */
final class HotPathSection {

    /** Targets of issue 15 for one offloaded request: CPU ns, allocated bytes, file-system calls. */
    static final double CPU_NS = 5000;
    static final double BYTES = 1024;
    static final double FS_CALLS = 2;

    private HotPathSection() {
    }

    /** The rows of JMH's CSV output without its header; none when there is no file. */
    static List<String[]> readJmh(Path csv) throws IOException {
        if (csv == null || !Files.exists(csv)) {
            return List.of();
        }
        List<String[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(csv, StandardCharsets.UTF_8)) {
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (char c : line.toCharArray()) {
                if (c == '"') {
                    quoted = !quoted;
                } else if (c == ',' && !quoted) {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(c);
                }
            }
            cells.add(cell.toString());
            rows.add(cells.toArray(new String[0]));
        }
        return rows.isEmpty() ? rows : rows.subList(1, rows.size());
    }

    static String markdown(Measurements data, Meta meta, List<String[]> jmh) {
        StringBuilder md = new StringBuilder();
        if (!jmh.isEmpty()) {
            md.append("## Filter hot path (JMH)\n\n").append(meta.get("jmh_note", ""))
                    .append("\n\n| benchmark | ns/op | ± (99.9%) |\n|---|---:|---:|\n");
            for (String[] row : jmh) {
                if (row.length < 7) {
                    continue;
                }
                String name = row[0].substring(row[0].lastIndexOf('.') + 1);
                md.append("| ").append(name).append(" | ").append(Stats.fmt(Double.parseDouble(row[4]), 1))
                        .append(" | ").append(row[5].equals("NaN") ? "–" : Stats.fmt(Double.parseDouble(row[5]), 1))
                        .append(" |\n");
            }
            md.append('\n');
        }
        if (data.setups("hotpath").isEmpty()) {
            return md.toString();
        }
        md.append("## Filter cost per offloaded request\n\n").append(meta.get("hotpath_note", ""))
                .append("\n\n| mode | CPU ns | JMH ns/op | allocated bytes | file-system calls | calls by name |\n")
                .append("|---|---:|---:|---:|---:|---|\n");
        for (String mode : data.setups("hotpath")) {
            StringBuilder names = new StringBuilder();
            for (String metric : data.metrics("hotpath", mode)) {
                if (metric.startsWith("sys_")) {
                    names.append(names.length() == 0 ? "" : ", ").append(metric.substring(4)).append(' ')
                            .append(Stats.fmt(data.median("hotpath", mode, metric), 2));
                }
            }
            md.append("| ").append(mode)
                    .append(" | ").append(target(data.median("hotpath", mode, "cpu_ns"), CPU_NS, 0))
                    .append(" | ").append(jmhScore(jmh, jmhName(mode)))
                    .append(" | ").append(target(data.median("hotpath", mode, "alloc_bytes"), BYTES, 0))
                    .append(" | ").append(target(data.median("hotpath", mode, "fs_calls"), FS_CALLS, 2))
                    .append(" | ").append(names.length() == 0 ? "–" : names).append(" |\n");
        }
        md.append("\nTargets: ≤ ").append(Stats.fmt(CPU_NS, 0)).append(" ns CPU, ≤ ").append(Stats.fmt(BYTES, 0))
                .append(" bytes, ≤ ").append(Stats.fmt(FS_CALLS, 0))
                .append(" file-system calls per request; ✗ marks a missed one.\n\n");
        return md.toString();
    }

    /** The JMH method of a {@code HotPathLoop} mode: {@code mapped-receipts} → {@code offloadMappedReceipts}. */
    static String jmhName(String mode) {
        StringBuilder n = new StringBuilder("offload");
        for (String part : mode.split("-")) {
            n.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return n.toString();
    }

    /** The JMH score of {@code method}, or "–" when JMH did not run it. */
    private static String jmhScore(List<String[]> jmh, String method) {
        for (String[] row : jmh) {
            if (row.length >= 7 && row[0].endsWith("." + method)) {
                return Stats.fmt(Double.parseDouble(row[4]), 0);
            }
        }
        return "–";
    }

    /** The value, with ✗ when above its target. */
    private static String target(double value, double max, int decimals) {
        if (Double.isNaN(value)) {
            return "–";
        }
        return Stats.fmt(value, decimals) + (value > max ? " ✗" : "");
    }
}
