package dev.xaccel.bench.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.SmallCase;

/**
 * The results page's chart, a plain SVG of horizontal bars: MB/s of every large-file workload and requests/s at the
 * highest small-file concurrency (median, whiskers min–max), and CPU seconds per GB of the first large-file workload
 * (JVM in the setup's colour, nginx stacked in grey). Hand-drawn: a few rectangles and lines need no library.
 */
final class Chart {

    private static final int WIDTH = 860;
    private static final int LABEL_WIDTH = 330;
    private static final int BAR = 16;
    /** Room for the value behind the longest bar. */
    private static final double BAR_SPACE = WIDTH - LABEL_WIDTH - 130;
    /** One colour per {@link Setup}, in its order. */
    private static final String[] COLOURS = {"#8c8c8c", "#c0504d", "#2e75b6", "#70ad47", "#b48ade", "#f0a030",
        "#2aa198", "#3b8a3b", "#1f4e79", "#9e480e", "#7f7f7f", "#7f6000", "#bf9000", "#5b9bd5",
        "#d4588a"};

    /** One group of bars; {@code stacked} non-null: CPU per GB of {@code metric} with {@code stacked} on top. */
    private record Panel(String title, String workload, String metric, String stacked) {
    }

    private Chart() {
    }

    static String svg(Measurements data, Meta meta) {
        List<Panel> panels = new ArrayList<>();
        List<String> large = new ArrayList<>(data.workloads("large-"));
        // the files at the top of the root, which every setup serves
        List<String> small = new ArrayList<>(data.workloads("small-").stream().filter(w -> SmallCase.parse(w)
                .map(SmallCase.Id::topLevel).orElse(false)).toList());
        large.forEach(w -> panels.add(new Panel(meta.label(w) + " — MB/s", w, "MBps", null)));
        if (!small.isEmpty()) {
            String w = small.get(small.size() - 1);
            panels.add(new Panel("Small files, concurrency " + SmallFileSection.concurrency(w) + " — requests/s", w,
                    "rps", null));
        }
        if (!large.isEmpty()) {
            panels.add(new Panel(meta.label(large.get(0)) + " — CPU seconds per GB: JVM (colour) + nginx (grey)",
                    large.get(0), "jvm_s", "nginx_s"));
        }
        StringBuilder body = new StringBuilder();
        int y = 40;
        for (Panel p : panels) {
            List<Setup> setups = data.setupsIn(p.workload());
            double max = 0;
            for (Setup s : setups) {
                max = Math.max(max, p.stacked() != null ? cpu(data, p, s, p.metric()) + cpu(data, p, s, p.stacked())
                        : data.values(p.workload(), s.id(), p.metric()).stream().mapToDouble(v -> v).max().orElse(0));
            }
            double scale = BAR_SPACE / (max > 0 ? max : 1);
            body.append(text(10, y, p.title(), "bold", 14));
            y += 10;
            for (Setup s : setups) {
                List<Double> v = data.values(p.workload(), s.id(), p.metric());
                double m = p.stacked() != null ? cpu(data, p, s, p.metric()) : Stats.median(v);
                body.append(text(10, y + BAR - 4, s.label(), "normal", 12));
                body.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"/>%n", LABEL_WIDTH, y, Math.max(0.5, m * scale), BAR,
                        COLOURS[s.ordinal() % COLOURS.length]));
                double end = m;
                String value = Stats.fmt(m, m < 10 ? 2 : 0);
                if (p.stacked() != null) {
                    double n = cpu(data, p, s, p.stacked());
                    body.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                            + "fill=\"#bbbbbb\"/>%n", LABEL_WIDTH + m * scale, y, n * scale, BAR));
                    end = m + n;
                    value = Stats.fmt(m, 3) + " + " + Stats.fmt(n, 3);
                } else if (v.size() > 1) {
                    double lo = Collections.min(v) * scale + LABEL_WIDTH;
                    double hi = Collections.max(v) * scale + LABEL_WIDTH;
                    int cy = y + BAR / 2;
                    body.append(String.format(Locale.ROOT, "<path d=\"M%.1f %dH%.1fM%.1f %dV%dM%.1f %dV%d\" "
                            + "stroke=\"#222\" fill=\"none\"/>%n", lo, cy, hi, lo, cy - 4, cy + 4, hi, cy - 4, cy + 4));
                    end = Collections.max(v);
                }
                body.append(text((int) (LABEL_WIDTH + end * scale + 6), y + BAR - 4, value, "normal", 12));
                y += BAR + 6;
            }
            y += 26;
        }
        String title = "xaccel benchmark " + meta.get("date", "") + ("1".equals(meta.get("quick"))
                ? " (quick smoke run)" : "") + " — median, whiskers min–max; " + meta.get("machine.nproc", "?")
                + " cores shared by clients and servers, loopback";
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"" + (y + 10)
                + "\" viewBox=\"0 0 " + WIDTH + " " + (y + 10) + "\" font-family=\"sans-serif\">\n"
                + "<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n" + text(10, 20, title, "normal", 12)
                + body + "</svg>\n";
    }

    /** CPU seconds per GB over the run, 0 when not measured. */
    private static double cpu(Measurements data, Panel p, Setup s, String metric) {
        double perGB = data.perGB(p.workload(), s.id(), metric);
        return Double.isNaN(perGB) ? 0 : perGB;
    }

    private static String text(int x, int y, String s, String weight, int size) {
        return "<text x=\"" + x + "\" y=\"" + y + "\" font-size=\"" + size + "\" font-weight=\"" + weight + "\">"
                + s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") + "</text>\n";
    }
}
