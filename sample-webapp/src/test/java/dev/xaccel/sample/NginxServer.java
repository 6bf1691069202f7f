package dev.xaccel.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * nginx started from the sample's shipped config, sample-webapp/nginx/xaccel-demo.conf.template, with only
 * its placeholders (ports and the library path) replaced — the same rendering ./demo does.
 */
final class NginxServer implements AutoCloseable {

    final Path prefix;
    final Path conf;
    final int port;
    private final String globals;

    private NginxServer(Path prefix, Path conf, int port, String globals) {
        this.prefix = prefix;
        this.conf = conf;
        this.port = port;
        this.globals = globals;
    }

    /**
     * nginx started as root runs its workers as {@code nobody}, who cannot read a checkout below a private
     * directory (e.g. /root): only then are the workers kept as root (as ./demo does). The shipped config
     * never sets {@code user}.
     */
    static String globalDirectives(Path library) {
        if ("root".equals(System.getProperty("user.name")) && !readableByOthers(library)) {
            return "user root;";
        }
        return null;
    }

    private static boolean readableByOthers(Path dir) {
        try {
            for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    static NginxServer start(Path prefix, int tomcatPort, Path library) throws IOException, InterruptedException {
        ItSupport.require(ItSupport.NGINX, "nginx");
        Path template = ItSupport.property("xaccel.it.nginxTemplate");
        int port = ItSupport.freePort();
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("tmp"));
        Files.deleteIfExists(prefix.resolve("logs/access.log"));
        String text = Files.readString(template, StandardCharsets.UTF_8)
                .replace("${NGINX_PORT}", Integer.toString(port))
                .replace("${TOMCAT_PORT}", Integer.toString(tomcatPort))
                .replace("${LIBRARY}", library.toString());
        if (text.contains("${")) {
            throw new AssertionError("unreplaced placeholder in " + template);
        }
        Path conf = prefix.resolve("nginx.conf");
        Files.writeString(conf, text, StandardCharsets.UTF_8);
        NginxServer n = new NginxServer(prefix, conf, port, globalDirectives(library));
        n.run("-t", "-q");
        n.run();
        return n;
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    Path accessLog() {
        return prefix.resolve("logs/access.log");
    }

    List<String> accessLogLines() throws IOException {
        Path log = accessLog();
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.ISO_8859_1) : List.of();
    }

    private void run(String... extra) throws IOException, InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of(ItSupport.NGINX.toString(), "-p", prefix.toString(),
                "-e", prefix.resolve("logs/error.log").toString(), "-c", conf.toString()));
        if (globals != null) {
            cmd.addAll(List.of("-g", globals));
        }
        cmd.addAll(List.of(extra));
        Path out = prefix.resolve("logs/nginx-cmd.out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new AssertionError("nginx " + String.join(" ", extra) + " failed: " + ItSupport.tail(out, 2000)
                    + "\n" + ItSupport.tail(prefix.resolve("logs/error.log"), 2000));
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Path pid = prefix.resolve("logs/nginx.pid");
        if (Files.exists(pid)) {
            run("-s", "quit");
            ItSupport.await(Duration.ofSeconds(10), () -> !Files.exists(pid));
        }
    }
}
