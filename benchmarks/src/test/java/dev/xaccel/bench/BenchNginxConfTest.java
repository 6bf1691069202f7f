package dev.xaccel.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchNginxConfTest {

    private static final Path TEMPLATES = Path.of(System.getProperty("xaccel.nginx.templates", "../docs/nginx"));
    private static final String SECRET = "s3cret-s3cret-s3cret-s3cret-s3cret-s3cret-s3cr";
    private static final BenchNginxConf.Ports PORTS = new BenchNginxConf.Ports(20001, 20002, 20003, 20004, 20005);

    private static BenchNginxConf.Params params(Path prefix, Path data) {
        return new BenchNginxConf.Params("1.22.1", 2, "", prefix, 20000, data, SECRET, PORTS);
    }

    /** The template with its variables filled by plain string replacement (independent of the composer). */
    private static String filled(String template, int nginxPort) throws Exception {
        String t = Files.readString(TEMPLATES.resolve(template), StandardCharsets.UTF_8);
        Map<String, String> v = Map.of("${NGINX_PORT}", Integer.toString(nginxPort), "${TOMCAT_PORT}", "20000",
                "${MEDIA_ROOT}", "/srv/bench-data", "${PUBLIC_PREFIX}", "/cached/files/", "${LINK_SECRET}", SECRET);
        for (Map.Entry<String, String> e : v.entrySet()) {
            t = t.replace(e.getKey(), e.getValue());
        }
        return t;
    }

    /**
     * The template's block by its layout, not by brace counting: the first line that starts with {@code first}
     * (after indentation), through the line that is its indentation plus {@code }}; a line ending in {@code ;} alone.
     */
    private static String blockByIndentation(String text, Predicate<String> first) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!first.test(line.strip())) {
                continue;
            }
            if (line.strip().endsWith(";")) {
                return line;
            }
            String indent = line.substring(0, line.indexOf(line.strip()));
            for (int j = i + 1; j < lines.size(); j++) {
                if (lines.get(j).equals(indent + "}")) {
                    return String.join("\n", lines.subList(i, j + 1));
                }
            }
        }
        throw new AssertionError("no block in the template");
    }

    @Test
    void everyTemplateBlockIsTakenOverVerbatim() throws Exception {
        String conf = BenchNginxConf.render(TEMPLATES, params(Path.of("/tmp/ng"), Path.of("/srv/bench-data")));
        String cached = filled(BenchNginxConf.CACHED_TEMPLATE, PORTS.cached());
        String signed = filled(BenchNginxConf.SIGNED_TEMPLATE, PORTS.signed());
        List<String> expected = List.of(
                blockByIndentation(cached, l -> l.startsWith("upstream xaccel_app ")),
                blockByIndentation(cached, l -> l.startsWith("proxy_cache_path ")),
                blockByIndentation(cached, l -> l.startsWith("server {")),
                blockByIndentation(signed, l -> l.startsWith("location ^~ /s/media/ ")));
        for (String block : expected) {
            assertTrue(conf.contains("\n" + block + "\n"), () -> "not verbatim in the bench config:\n" + block);
        }
        assertEquals(expected.get(2), BenchNginxConf.block(cached, BenchNginxConf.CACHED_SERVER, "cached"));
        assertEquals(expected.get(3), BenchNginxConf.block(signed, BenchNginxConf.SIGNED_LOCATION, "signed"));
        assertTrue(expected.get(2).contains("listen       127.0.0.1:20004;"), expected.get(2));
    }

    @Test
    void serversListenOnLoopbackOnlyAndNoTemplateVariableIsLeft() {
        String conf = BenchNginxConf.render(TEMPLATES, params(Path.of("/tmp/ng"), Path.of("/srv/bench-data")));
        List<String> listens = conf.lines().map(String::strip).filter(l -> l.startsWith("listen")).toList();
        assertEquals(5, listens.size(), conf);
        for (String l : listens) {
            assertTrue(l.matches("listen\\s+127\\.0\\.0\\.1:2000[1-5];"), l);
        }
        for (String var : List.of("NGINX_PORT", "TOMCAT_PORT", "MEDIA_ROOT", "PUBLIC_PREFIX", "LINK_SECRET")) {
            assertFalse(conf.contains("$" + var) || conf.contains("${" + var + "}"), var);
        }
        assertTrue(conf.contains("server 127.0.0.1:20000;"), conf);
        assertTrue(conf.contains("pid /tmp/ng/nginx.pid;"), conf);
    }

    @Test
    void blocksAreCutByBracesSoChangedTemplatesAreTakenOverAsTheyAre() {
        String server = String.join("\n",
                "    server {",
                "        listen 127.0.0.1:1;   # a comment with } and {",
                "        disable_symlinks if_not_owner from=$document_root;",
                "        add_header X-Frame-Options DENY always;",
                "        location = /_xaccel_auth {",
                "            proxy_buffer_size 16k;",
                "            proxy_set_header X \"a } b; c {\";",
                "            set $x '}';",
                "            return 200 \"${host}\";",
                "        }",
                "    }");
        String text = "# server { in a comment\n    upstream u {\n        server a;\n    }\n" + server
                + "\n    server {\n        listen 2;\n    }\n";
        assertEquals(server, BenchNginxConf.block(text, BenchNginxConf.CACHED_SERVER, "test"));
        assertEquals("    proxy_cache_path  tmp/c  keys_zone=z:1m;   # trailing comment",
                BenchNginxConf.block("x;\n    proxy_cache_path  tmp/c  keys_zone=z:1m;   # trailing comment\ny;\n",
                        BenchNginxConf.CACHED_ZONE, "test"));
    }

    @Test
    void theRealTemplatesWithLinesAddedAndRemovedStillCompose(@TempDir Path dir) throws Exception {
        for (String t : List.of(BenchNginxConf.CACHED_TEMPLATE, BenchNginxConf.SIGNED_TEMPLATE)) {
            String text = Files.readString(TEMPLATES.resolve(t), StandardCharsets.UTF_8)
                    .replaceAll("(?m)^\\s*proxy_cache_valid\\s.*\n", "")
                    .replaceAll("(?m)^(\\s*)internal;$", "$1internal;\n$1disable_symlinks if_not_owner;\n"
                            + "$1add_header X-Content-Type-Options nosniff always;\n$1proxy_buffer_size 16k;");
            Files.writeString(dir.resolve(t), text, StandardCharsets.UTF_8);
        }
        String conf = BenchNginxConf.render(dir, params(Path.of("/tmp/ng"), Path.of("/srv/bench-data")));
        assertFalse(conf.contains("proxy_cache_valid"), conf);
        String server = BenchNginxConf.block(conf.substring(conf.indexOf("# (6)")), BenchNginxConf.CACHED_SERVER,
                "conf");
        assertTrue(server.contains("disable_symlinks if_not_owner;"), server);
        assertTrue(server.contains("location ^~ /_xaccel/media/ {"), server); // the block's last location
        String signed = conf.substring(conf.indexOf("# (7)"));
        assertTrue(signed.contains("secure_link_md5"), signed);
        // one per internal location of the cached server block
        assertEquals(4, server.split("add_header X-Content-Type-Options nosniff always;", -1).length - 1, server);
    }

    @Test
    void aMissingOrUnterminatedBlockIsALoudError() {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> BenchNginxConf.block("http {\n}\n", BenchNginxConf.SIGNED_LOCATION, "some.template"));
        assertTrue(missing.getMessage().contains("some.template"), missing.getMessage());
        assertThrows(IllegalStateException.class,
                () -> BenchNginxConf.block("    server {\n        listen 1;\n", BenchNginxConf.CACHED_SERVER, "t"));
    }

    @Test
    void substitutesOnlyTheTemplateVariables() {
        assertEquals("listen 127.0.0.1:8080; $host ${host} $NGINX_PORTS 8080",
                BenchNginxConf.substitute("listen 127.0.0.1:${NGINX_PORT}; $host ${host} $NGINX_PORTS $NGINX_PORT",
                        Map.of("NGINX_PORT", "8080")));
    }

    @Test
    void nginxAcceptsTheRenderedConfig(@TempDir Path dir) throws Exception {
        Path nginx = Stream.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx").map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(nginx != null, "nginx is not installed");
        Path prefix = Files.createDirectories(dir.resolve("nginx/tmp")).getParent();
        Path data = Files.createDirectories(dir.resolve("data"));
        Path conf = prefix.resolve("nginx.conf");
        Files.writeString(conf, BenchNginxConf.render(TEMPLATES, params(prefix, data)), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(nginx.toString(), "-t", "-q", "-p", prefix.toString(), "-e",
                prefix.resolve("error.log").toString(), "-c", conf.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "nginx -t did not finish");
        assertEquals(0, p.exitValue(), out);
    }
}
