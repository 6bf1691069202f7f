package dev.xaccel.bench.reliability;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.system.Processes;
import dev.xaccel.testsupport.OpenFiles;
import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.NginxServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Scenario 1 of benchmarks/run --reliability: the sample application (its WAR in the embedded Tomcat of
 * {@code DemoLauncher}, a JVM of its own, offload=auto, the demo library) behind nginx with the sample's shipped
 * configuration, and wrk at a high concurrency for a minute with a mix of requests: small offloaded files (authors'
 * pictures, plain offload), cached decisions (covers by their /library/ URL), signed links (covers by the links of
 * /api/items: nginx alone), 64 KiB ranges of large files (chapters) and 401s (no token). Every status must be the
 * one its request kind expects (per kind, sent and answered counts agree within the connections still open at the
 * end), every range 64 KiB, no socket error; afterwards the Tomcat JVM's heap after a full GC and its open
 * descriptors are back to their level before the load. Writes {@code key value} figures.
 */
final class ReliabilityLoad {

    /** What the run measured, in the order written. */
    final Map<String, String> figures = new LinkedHashMap<>();

    private final Path root;
    private final Path work;
    private final int seconds;
    private final int connections;

    ReliabilityLoad(Path root, Path work, int seconds, int connections) {
        this.root = root;
        this.work = work;
        this.seconds = seconds;
        this.connections = connections;
    }

    void run(Processes processes) throws Exception {
        Path target = root.resolve("sample-webapp/target");
        Path war = target.resolve("sample-webapp.war");
        if (!Files.isRegularFile(war) || !Files.isRegularFile(target.resolve("demo-classpath.txt"))) {
            throw new BenchFailure("the sample WAR is not built (" + war + "): benchmarks/run --reliability builds it");
        }
        Path library = work.resolve("library");
        Files.createDirectories(library);
        String secret = "reliability-" + Long.toHexString(Double.doubleToLongBits(Math.random())) + "-0123456789ab";
        int tomcatPort = Ports.freeLoopbackPort();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("XACCEL_OFFLOAD", "auto");
        env.put("XACCEL_DEMO_LIBRARY", library.toString());
        env.put("XACCEL_DEMO_USERS", "bench:benchpw");
        env.put("XACCEL_LINK_SECRET", secret);
        // the sample as ./demo runs it: nginx logs its delivery receipts to a port the filter reads (an unread port
        // would fill nginx's error log with refused sends)
        int receiptsPort = freeUdpPort();
        env.put("XACCEL_RECEIPTS", "127.0.0.1:" + receiptsPort);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = target.resolve("classes") + ":" + Files.readString(target.resolve("demo-classpath.txt")).trim();
        Process tomcat = processes.start(List.of(java, "-Xms256m", "-Xmx256m", "-cp", cp,
                "dev.xaccel.sample.demo.DemoLauncher", "--war", war.toString(), "--port", Integer.toString(tomcatPort),
                "--base", work.resolve("tomcat").toString()), env, work.resolve("tomcat.log"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        if (!Poll.until(Duration.ofSeconds(180), Duration.ofMillis(500), () -> !tomcat.isAlive()
                || status(http, "http://127.0.0.1:" + tomcatPort + "/assets/app.css", null) == 200)) {
            throw new BenchFailure("the sample did not start: " + work.resolve("tomcat.log"));
        }
        Path realLibrary = library.toRealPath();
        try (NginxServer nginx = NginxServer.builder(work.resolve("nginx"))
                .template(root.resolve("sample-webapp/nginx/xaccel-demo.conf.template"))
                .values(nginxValues(java, target.resolve("classes"), tomcatPort, realLibrary, secret,
                        receiptsPort))
                .workersRead(realLibrary).start()) {
            processes.adopt(nginx.pid());
            String base = "http://127.0.0.1:" + nginx.port();
            String token = login(http, base);
            Path requests = requestList(http, base, token, realLibrary);
            Path script = work.resolve("reliability-mix.lua");
            try (var in = ReliabilityLoad.class.getResourceAsStream("reliability-mix.lua")) {
                Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
            }
            long pid = tomcat.pid();
            Map<String, String> warm = wrk(processes, base, script, requests, token, 8, Math.min(5, seconds));
            figures.put("warm-up requests (8 connections, 5 s)", warm.get("requests"));
            long heapBefore = heapAfterGc(processes, pid);
            int fdsBefore = OpenFiles.countNonDirectories(pid);
            Map<String, String> run = wrk(processes, base, script, requests, token, connections, seconds);
            check(run);
            boolean fdsBack = Poll.until(Duration.ofSeconds(60), Duration.ofMillis(500),
                    () -> OpenFiles.countNonDirectories(pid) <= fdsBefore + 2);
            long heapAfter = heapAfterGc(processes, pid);
            figures.put("Tomcat heap after a full GC, before / after (KiB)", heapBefore + " / " + heapAfter);
            figures.put("Tomcat open descriptors other than directories before / after (after up to 60 s)",
                    fdsBefore + " / " + OpenFiles.countNonDirectories(pid));
            if (!fdsBack) {
                throw new BenchFailure("Tomcat's descriptors did not come back: " + fdsBefore + " before, "
                        + OpenFiles.countNonDirectories(pid) + " after");
            }
            if (heapAfter > heapBefore + 32 * 1024) {
                throw new BenchFailure("Tomcat's heap after GC grew by " + (heapAfter - heapBefore) + " KiB");
            }
            figures.put("nginx error log lines", Integer.toString(nginx.errorLog().isBlank() ? 0
                    : nginx.errorLog().split("\n").length));
        } finally {
            processes.stop(tomcat);
        }
    }

    /** A loopback UDP port free right now, for the filter's receipts (the filter binds it at startup). */
    private static int freeUdpPort() throws IOException {
        try (java.net.DatagramSocket s = new java.net.DatagramSocket(0, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * The values of the sample's nginx template, from the sample's own {@code DemoNginxValues} (the one place that
     * decides them for ./demo and the sample's ITs too), run with the sample's classes: {@code NAME=VALUE} lines.
     */
    private static Map<String, String> nginxValues(String java, Path sampleClasses, int tomcatPort, Path library,
            String secret, int receiptsPort) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", sampleClasses.toString(),
                "dev.xaccel.sample.demo.DemoNginxValues", "--tomcat-port", Integer.toString(tomcatPort), "--library",
                library.toString(), "--receipts-port", Integer.toString(receiptsPort))
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("XACCEL_LINK_SECRET", secret);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new BenchFailure("DemoNginxValues exited with " + p.exitValue());
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }

    /** Checks a wrk run's counters; records them. */
    private void check(Map<String, String> r) {
        figures.put("connections, seconds", connections + ", " + seconds);
        figures.put("requests", r.get("requests"));
        double rps = Double.parseDouble(r.get("requests")) / (Double.parseDouble(r.get("duration_us")) / 1e6);
        figures.put("requests/s", String.format("%.0f", rps));
        figures.put("p50 ms", r.get("p50_ms"));
        figures.put("p99 ms", r.get("p99_ms"));
        figures.put("max ms", r.get("max_ms"));
        figures.put("wrk errors (socket: connect read write timeout; status: non-2xx answers, i.e. the 401s)",
                r.get("errors"));
        Map<String, Long> sent = new LinkedHashMap<>();
        Map<Integer, Long> answered = new LinkedHashMap<>();
        r.forEach((k, v) -> {
            if (k.startsWith("sent ")) {
                sent.put(k.substring(5), Long.parseLong(v));
            } else if (k.startsWith("status ")) {
                answered.put(Integer.parseInt(k.substring(7)), Long.parseLong(v));
            }
        });
        figures.put("sent per kind", sent.toString());
        figures.put("answers per status", answered.toString());
        figures.put("ranges not 64 KiB", r.get("bad_range"));
        String[] e = r.get("errors").split(" ");
        long socketErrors = Long.parseLong(e[1]) + Long.parseLong(e[3]) + Long.parseLong(e[5])
                + Long.parseLong(e[7]);
        Map<Integer, Long> expected = new LinkedHashMap<>();
        sent.forEach((kind, n) -> expected.merge(expectedStatus(kind), n, Long::sum));
        List<String> wrong = new ArrayList<>();
        answered.forEach((status, n) -> {
            long want = expected.getOrDefault(status, 0L);
            if (n > want || want - n > connections) {
                wrong.add(status + ": " + n + " answered, " + want + " sent");
            }
        });
        expected.forEach((status, n) -> {
            if (!answered.containsKey(status) && n > connections) {
                wrong.add(status + ": none answered, " + n + " sent");
            }
        });
        figures.put("unexpected statuses", wrong.isEmpty() ? "0" : wrong.toString());
        if (socketErrors > 0 || !wrong.isEmpty() || !"0".equals(r.get("bad_range"))) {
            throw new BenchFailure("scenario 1: " + socketErrors + " socket errors, unexpected statuses " + wrong
                    + ", bad ranges " + r.get("bad_range") + " (" + r + ")");
        }
    }

    private static int expectedStatus(String kind) {
        return switch (kind) {
            case "range" -> 206;
            case "401" -> 401;
            default -> 200;
        };
    }

    private Map<String, String> wrk(Processes processes, String base, Path script, Path requests, String token,
            int conns, int secs) {
        Processes.Result r = processes.run(List.of("wrk", "-t2", "-c" + conns, "-d" + secs + "s", "--timeout", "10s",
                "--latency", "-s", script.toString(), base + "/", "--", requests.toString(), "Bearer " + token));
        if (r.exitCode() != 0) {
            throw new BenchFailure("wrk failed: " + r.output());
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : r.output().split("\n")) {
            Matcher m = Pattern.compile("^(sent \\S+|status \\d+|bad_range|requests|duration_us|p50_ms|p99_ms|max_ms"
                    + "|errors) (.*)$").matcher(line.trim());
            if (m.matches()) {
                out.put(m.group(1), m.group(2));
            }
        }
        if (!out.containsKey("requests")) {
            throw new BenchFailure("wrk printed no summary: " + r.output());
        }
        return out;
    }

    /** The request mix, one line per request: kind, path, extra header. */
    private Path requestList(HttpClient http, String base, String token, Path library) throws Exception {
        List<String> lines = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(library)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        for (Path f : files) {
            String rel = library.relativize(f).toString();
            String path = "/library/" + MediaFixture.encodePath(rel);
            int depth = library.relativize(f).getNameCount();
            if (rel.endsWith(".jpg") && depth == 2) {
                lines.add("offloaded\t" + path + "\t-");
            } else if (rel.endsWith(".jpg") && depth == 3) {
                lines.add("cached\t" + path + "\t-");
            } else if (rel.endsWith(".wav") && Files.size(f) > 200_000) {
                lines.add("range\t" + path + "\tRange: bytes=65536-131071");
            }
        }
        HttpResponse<String> items = http.send(HttpRequest.newBuilder(URI.create(base + "/api/items"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"(/s/library/[^\"]+)\"").matcher(items.body());
        int signed = 0;
        while (m.find()) {
            lines.add("signed\t" + m.group(1).replace("\\u0026", "&") + "\t-");
            signed++;
        }
        int n = lines.size();
        for (int i = 0; i < Math.max(1, n / 5); i++) {
            lines.add("401\t" + lines.get(i).split("\t")[1] + "\t-");
        }
        if (signed == 0 || lines.stream().noneMatch(l -> l.startsWith("range"))) {
            throw new BenchFailure("the library gave no signed links or no large files: " + lines);
        }
        figures.put("request mix (distinct requests per kind)", kinds(lines));
        Path out = work.resolve("reliability-requests.txt");
        Files.write(out, lines, StandardCharsets.UTF_8);
        return out;
    }

    private static String kinds(List<String> lines) {
        Map<String, Integer> k = new LinkedHashMap<>();
        lines.forEach(l -> k.merge(l.split("\t")[0], 1, Integer::sum));
        return k.toString();
    }

    private static String login(HttpClient http, String base) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("user=bench&password=benchpw")).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"token\"\\s*:\\s*\"([^\"]+)\"").matcher(r.body());
        if (r.statusCode() != 200 || !m.find()) {
            throw new BenchFailure("login failed: " + r.statusCode() + " " + r.body());
        }
        return m.group(1);
    }

    /** The heap in use after {@code jcmd GC.run}, KiB (G1 or Serial). */
    private static long heapAfterGc(Processes processes, long pid) {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        processes.run(List.of(jcmd, Long.toString(pid), "GC.run"));
        String info = processes.run(List.of(jcmd, Long.toString(pid), "GC.heap_info")).output();
        long used = 0;
        Matcher m = Pattern.compile("(?m)^\\s*(garbage-first heap|def new generation|tenured generation)"
                + "\\s+total \\d+K, used (\\d+)K").matcher(info);
        boolean found = false;
        while (m.find()) {
            used += Long.parseLong(m.group(2));
            found = true;
        }
        if (!found) {
            throw new BenchFailure("cannot read the heap from jcmd GC.heap_info: " + info);
        }
        return used;
    }

    private static int status(HttpClient http, String url, String auth) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
            if (auth != null) {
                b.header("Authorization", auth);
            }
            return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UncheckedIOException(new IOException(e));
        }
    }
}
