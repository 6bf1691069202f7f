package dev.xaccel.bench.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.bench.system.Machine;

/**
 * Writes docs/reliability.md: the prose of the resource {@code reliability.md} with its markers filled in —
 * {@code @@RUN@@} (when, commit, machine, load), {@code @@LOAD@@} (scenario 1's figures) and
 * {@code @@SCENARIO:<name>@@} (the figures an IT wrote to {@code <name>.tsv}, or a note that it has not run).
 */
final class ReliabilityReport {

    private static final Pattern SCENARIO = Pattern.compile("@@SCENARIO:([a-z0-9-]+)@@");

    private final Path root;
    private final Path figures;

    ReliabilityReport(Path root, Path figures) {
        this.root = root;
        this.figures = figures;
    }

    Path write(Path out, Map<String, String> load, long startEpoch, String loadBefore, String loadAfter,
            String commandLine) throws IOException {
        String text;
        try (InputStream in = ReliabilityReport.class.getResourceAsStream("reliability.md")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String run = "Run of " + DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC)
                .format(Instant.ofEpochSecond(startEpoch)) + " at commit `" + commit() + "` (`benchmarks/run "
                + commandLine + "`), on " + Machine.cores() + " shared vCPUs: load average " + loadBefore
                + " before, " + loadAfter + " after (the run's own servers and clients count in it; what else ran"
                + " shows as load before the run).";
        text = text.replace("@@RUN@@", run).replace("@@LOAD@@", table(load));
        Matcher m = SCENARIO.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(scenario(m.group(1))));
        }
        m.appendTail(sb);
        Files.createDirectories(out.getParent());
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        return out;
    }

    private String scenario(String name) throws IOException {
        Path file = figures.resolve(name + ".tsv");
        if (!Files.exists(file)) {
            return "_(not measured in this run: " + root.relativize(file) + " is missing)_\n";
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            int tab = line.indexOf('\t');
            if (tab > 0) {
                values.put(line.substring(0, tab), line.substring(tab + 1));
            }
        }
        values.remove("scenario");
        String variant = values.remove("variant");
        return "Measured (" + ("long".equals(variant) ? "the longer variant" : "the `mvn verify` sizes") + ", "
                + Files.getLastModifiedTime(file).toInstant().toString().replaceFirst("\\.\\d+Z$", "Z") + "):\n\n"
                + table(values);
    }

    private static String table(Map<String, String> values) {
        StringBuilder sb = new StringBuilder("| measured | value |\n|---|---|\n");
        values.forEach((k, v) -> sb.append("| ").append(k.replace("|", "\\|")).append(" | ")
                .append(v.replace("|", "\\|")).append(" |\n"));
        return sb.toString();
    }

    private String commit() {
        try {
            Process p = new ProcessBuilder("git", "-C", root.toString(), "rev-parse", "--short", "HEAD")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor() == 0 ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** The scenario names the template refers to, for tests. */
    static List<String> scenarios(String template) {
        return SCENARIO.matcher(template).results().map(r -> r.group(1)).toList();
    }
}
