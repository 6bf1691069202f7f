package dev.xaccel.bench.setup;

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
import java.util.regex.Pattern;
import java.util.stream.Stream;

import dev.xaccel.testsupport.TemplateRenderer;
import dev.xaccel.testsupport.nginx.NginxConfigLint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchNginxConfTest {

    private static final Path TEMPLATES = Path.of(System.getProperty("xaccel.nginx.templates", "../docs/nginx"));
    private static final String SECRET = "s3cret-s3cret-s3cret-s3cret-s3cret-s3cret-s3cr";
    private static final String DATA = "/srv/bench-data";
    private static final BenchNginxConf.Ports PORTS = new BenchNginxConf.Ports(20001, 20002, 20003, 20004, 20005,
            20006, 20007, 20008, 20010, 20011);

    private static BenchNginxConf.Params params(Path prefix, Path data) {
        return new BenchNginxConf.Params("1.22.1", 2, prefix, 20000, 20012, data, SECRET, 20009);
    }

    /** The template with its variables filled by plain string replacement (independent of the composer). */
    private static String filled(String template, int nginxPort) throws Exception {
        String t = Files.readString(TEMPLATES.resolve(template), StandardCharsets.UTF_8);
        Map<String, String> v = Map.of("${NGINX_PORT}", Integer.toString(nginxPort), "${TOMCAT_PORT}", "20000",
                "${MEDIA_ROOT}", DATA, "${PUBLIC_PREFIX}", "/cached/files/", "${LINK_SECRET}", SECRET);
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

    private static String render() {
        return BenchNginxConf.render(TEMPLATES, params(Path.of("/tmp/ng"), Path.of(DATA)), PORTS);
    }

    @Test
    void everyTemplateBlockIsTakenOverVerbatim() throws Exception {
        String conf = render();
        String xaccel = filled(BenchNginxConf.XACCEL_TEMPLATE, PORTS.xaccel());
        String cached = filled(BenchNginxConf.CACHED_TEMPLATE, PORTS.cached());
        String signed = filled(BenchNginxConf.SIGNED_TEMPLATE, PORTS.signed());
        String internal = blockByIndentation(xaccel, l -> l.startsWith("location ^~ /_xaccel/media/ "));
        List<String> expected = List.of(
                blockByIndentation(xaccel, l -> l.startsWith("proxy_buffer_size ")),
                blockByIndentation(xaccel, l -> l.startsWith("proxy_busy_buffers_size ")),
                internal,
                blockByIndentation(cached, l -> l.startsWith("upstream xaccel_app ")),
                blockByIndentation(cached, l -> l.startsWith("proxy_cache_path ")),
                blockByIndentation(cached, l -> l.startsWith("server {")),
                blockByIndentation(signed, l -> l.startsWith("location ^~ /s/media/ ")));
        for (String block : expected) {
            assertTrue(conf.contains("\n" + block + "\n"), () -> "not verbatim in the bench config:\n" + block);
        }
        assertEquals(internal, BenchNginxConf.block(xaccel, BenchNginxConf.INTERNAL_LOCATION, "xaccel"));
        assertEquals(expected.get(5), BenchNginxConf.block(cached, BenchNginxConf.CACHED_SERVER, "cached"));
        assertEquals(expected.get(6), BenchNginxConf.block(signed, BenchNginxConf.SIGNED_LOCATION, "signed"));
        assertTrue(expected.get(5).contains("listen       127.0.0.1:20004;"), expected.get(5));
        assertTrue(ServerBlocks.of(conf, PORTS.xaccel()).contains(internal), conf);
        // the http {} lines, not a server's
        assertTrue(conf.indexOf(expected.get(0)) < conf.indexOf("server {"), conf);
        assertTrue(conf.indexOf(expected.get(1)) < conf.indexOf("server {"), conf);
    }

    @Test
    void serversListenOnLoopbackOnlyAndNoTemplateVariableIsLeft() {
        String conf = render();
        List<String> listens = conf.lines().map(String::strip).filter(l -> l.startsWith("listen")).toList();
        assertEquals(BenchNginxConf.PORT_PLACEHOLDERS.size(), listens.size(), conf);
        for (String l : listens) {
            assertTrue(l.matches("listen\\s+127\\.0\\.0\\.1:200(0[1-8]|1[01]);"), l);
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

    /** The lines of the template's internal location that confine the open and set the headers, blanks collapsed. */
    private static List<String> confinementAndHeaders(String template) {
        String internal = BenchNginxConf.block(template, BenchNginxConf.INTERNAL_LOCATION, "template");
        return ServerBlocks.directives(new NginxConfigLint.Location("", internal)).stream()
                .filter(l -> l.startsWith("disable_symlinks ") || l.startsWith("add_header X-Content-Type-Options ")
                        || l.startsWith("add_header Content-Security-Policy "))
                .toList();
    }

    @Test
    void everyFileLocationOfSetups3To7IsConfinedAndSendsTheHeadersOfTheTemplates() throws Exception {
        String conf = render();
        Map<String, Integer> servers = Map.of(BenchNginxConf.XACCEL_TEMPLATE, PORTS.xaccel(),
                BenchNginxConf.CACHED_TEMPLATE, PORTS.cached(), BenchNginxConf.SIGNED_TEMPLATE, PORTS.signed());
        Map<Integer, List<String>> fileLocations = Map.of(PORTS.xaccel(), List.of("^~ /_xaccel/media/"),
                PORTS.cached(), List.of("^~ /_xaccel_cached/_xaccel/media/", "^~ /_xaccel/media/"),
                PORTS.signed(), List.of("^~ /s/media/"));
        for (Map.Entry<String, Integer> e : servers.entrySet()) {
            List<String> expected = confinementAndHeaders(filled(e.getKey(), e.getValue()));
            assertEquals(List.of("disable_symlinks on from=" + DATA + ";",
                    "add_header X-Content-Type-Options nosniff always;",
                    "add_header Content-Security-Policy \"default-src 'none'; style-src 'unsafe-inline'; sandbox\" "
                            + "always;"), expected, e.getKey());
            List<NginxConfigLint.Location> serving = ServerBlocks.fileLocations(conf, e.getValue());
            assertEquals(fileLocations.get(e.getValue()), serving.stream().map(NginxConfigLint.Location::match)
                    .toList(), e.getKey());
            for (NginxConfigLint.Location l : serving) {
                assertTrue(ServerBlocks.directives(l).containsAll(expected), () -> e.getKey() + ": location "
                        + l.match() + " lacks some of " + expected + ":\n" + l.body());
            }
        }
        assertFalse(Pattern.compile("(?m)^\\s*proxy_cache_valid\\s").matcher(conf).find(), conf);
        // ... in a config that does cache (the decisions of setup 6)
        assertTrue(Pattern.compile("(?m)^\\s*proxy_cache\\s+xaccel_auth\\s*;").matcher(conf).find(), conf);
    }

    @Test
    void setup8IsSetup4PlusTheDisableSymlinksLineOfTheInternalLocation() throws Exception {
        String conf = render();
        List<NginxConfigLint.Location> statik = ServerBlocks.fileLocations(conf, PORTS.statik());
        List<NginxConfigLint.Location> confined = ServerBlocks.fileLocations(conf, PORTS.confined());
        assertEquals(1, statik.size(), conf);
        assertEquals(1, confined.size(), conf);
        assertEquals(statik.get(0).match(), confined.get(0).match());
        assertEquals(List.of("alias " + DATA + "/;"), ServerBlocks.directives(statik.get(0)));
        String line = BenchNginxConf.block(filled(BenchNginxConf.XACCEL_TEMPLATE, PORTS.xaccel()),
                BenchNginxConf.DISABLE_SYMLINKS, "xaccel");
        assertEquals("disable_symlinks on from=" + DATA + ";", line.strip().replaceAll("\\s+", " "));
        assertTrue(confined.get(0).body().contains(line + "\n"), confined.get(0).body());
        assertEquals(List.of(line.strip().replaceAll("\\s+", " "), "alias " + DATA + "/;"),
                ServerBlocks.directives(confined.get(0)));
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
    void aTemplateWhoseBlockLostWhatItsSetupReliesOnIsRejectedEvenWhenTheLineIsOnlyCommentedOut(@TempDir Path dir)
            throws Exception {
        for (String t : List.of(BenchNginxConf.XACCEL_TEMPLATE, BenchNginxConf.CACHED_TEMPLATE,
                BenchNginxConf.SIGNED_TEMPLATE)) {
            Files.copy(TEMPLATES.resolve(t), dir.resolve(t));
        }
        Path xaccel = dir.resolve(BenchNginxConf.XACCEL_TEMPLATE);
        String text = Files.readString(xaccel, StandardCharsets.UTF_8);
        int location = text.indexOf("location ^~ /_xaccel/media/ {");
        int internal = text.indexOf("internal;", location);
        Files.writeString(xaccel, text.substring(0, internal) + "# " + text.substring(internal),
                StandardCharsets.UTF_8);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BenchNginxConf.render(dir, params(Path.of("/tmp/ng"), Path.of(DATA)), PORTS));
        assertTrue(e.getMessage().contains("/_xaccel/media/ location of xaccel.conf.template has no internal;"),
                e.getMessage());
    }

    @Test
    void fillsOnlyTheTemplatePlaceholdersAndLeavesNginxsVariables() {
        assertEquals("listen 127.0.0.1:8080; root " + DATA + "; $host ${host} $NGINX_PORT $uri",
                BenchNginxConf.fill(
                        "listen 127.0.0.1:${NGINX_PORT}; root ${MEDIA_ROOT}; $host ${host} $NGINX_PORT $uri",
                        params(Path.of("/tmp/ng"), Path.of(DATA)), "8080"));
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> BenchNginxConf.fill("listen ${NO_SUCH_PORT};", params(Path.of("/tmp/ng"), Path.of(DATA)), "1"));
        assertTrue(unknown.getMessage().contains("${NO_SUCH_PORT}"), unknown.getMessage());
    }

    /** What the shared NginxServer is given: the listen ports as its placeholders, and nothing else to fill. */
    @Test
    void theTemplateLeavesExactlyTheListenPortsToNginxServer() {
        String template = BenchNginxConf.template(TEMPLATES, params(Path.of("/tmp/ng"), Path.of(DATA)));
        List<String> placeholders = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)}").matcher(template).results()
                .map(m -> m.group(1)).distinct().sorted().toList();
        assertEquals(BenchNginxConf.PORT_PLACEHOLDERS.stream().sorted().toList(), placeholders);
        assertEquals(render(), TemplateRenderer.render(template, Map.of("PROXIED_PORT", "20001", "XACCEL_PORT",
                "20002", "STATIC_PORT", "20003", "CACHED_PORT", "20004", "SIGNED_PORT", "20005", "CONFINED_PORT",
                "20006", "BARE_PORT", "20007", "UDS_PORT", "20008", "RECEIPTS_SERVER_PORT", "20010", "REMOTE_PORT",
                "20011")));
        // the shared NginxServer runs nginx in the foreground and decides who the workers run as
        assertFalse(Pattern.compile("(?m)^\\s*(daemon|user)\\s").matcher(template).find(), template);
    }

    /**
     * Setups 12 and 13 differ from setup 3 in one thing each: 12 proxies to the bare servlet's context, 13 reaches the
     * same context through the Unix socket in the run's directory, with setup 3's keepalive. The remote setups'
     * locations are in a server of their own, whose {@code location /} is setup 3's towards the other JVM: setup 3's
     * server has no regex location for nginx to try.
     */
    @Test
    void setups12And13AreSetup3WithOneDifferenceEach() {
        String conf = render();
        String xaccel = ServerBlocks.of(conf, PORTS.xaccel());
        assertFalse(xaccel.contains("location ~"), xaccel);
        String remote = ServerBlocks.of(conf, PORTS.remote());
        int regex = remote.indexOf("        location ~ ^/_xaccel/remote/");
        assertTrue(regex > 0, remote);
        assertEquals(xaccel.substring(0, xaccel.indexOf("        location ^~ /_xaccel/media/"))
                .replace("listen 127.0.0.1:20002;", "listen 127.0.0.1:20011;")
                .replace("proxy_pass http://tomcat_hop;", "proxy_pass http://tomcat;"), remote.substring(0, regex));
        String bare = ServerBlocks.of(conf, PORTS.bare());
        String uds = ServerBlocks.of(conf, PORTS.uds());
        assertEquals(xaccel.replace("listen 127.0.0.1:20002;", "listen 127.0.0.1:20007;").replace(
                "proxy_set_header X-Sendfile-Type X-Accel-Redirect;\n",
                "proxy_set_header X-Sendfile-Type X-Accel-Redirect;\n"
                        + "            proxy_set_header X-Bench-Bare \"" + SECRET + "\";\n"), bare);
        assertEquals(xaccel.replace("listen 127.0.0.1:20002;", "listen 127.0.0.1:20008;")
                .replace("proxy_pass http://tomcat_hop;", "proxy_pass http://tomcat_unix;"), uds);
        Path socket = Path.of("/tmp", HopSetups.SOCKET_NAME); // beside nginx's prefix /tmp/ng
        assertTrue(Pattern.compile("upstream tomcat_unix \\{\\s+server unix:" + Pattern.quote(socket.toString())
                + ";\\s+keepalive 64;\\s+}").matcher(conf).find(), conf);
        assertTrue(Pattern.compile("upstream tomcat \\{\\s+server 127.0.0.1:20000;\\s+keepalive 64;\\s+}")
                .matcher(conf).find(), conf);
        // the hop's setups reach the hop's JVM; setup 2 (and the remote setups above) the other
        assertTrue(Pattern.compile("upstream tomcat_hop \\{\\s+server 127.0.0.1:20012;\\s+keepalive 64;\\s+}")
                .matcher(conf).find(), conf);
        assertTrue(xaccel.contains("proxy_pass http://tomcat_hop;"), xaccel);
        assertTrue(ServerBlocks.of(conf, PORTS.proxied()).contains("proxy_pass http://tomcat;"), conf);
    }

    /**
     * Setup 16 is setup 3 towards the /receipts context with the template's two receipt lines: the
     * {@code proxy_hide_header} of the identifier, and the include of the rendered receipts template switched on in
     * the internal location (which otherwise is setup 3's, verbatim); the {@code xaccel_receipt} format is in
     * {@code http {}}.
     */
    @Test
    void setup16IsSetup3WithTheTemplatesReceiptLines() throws Exception {
        String conf = render();
        String xaccel = ServerBlocks.of(conf, PORTS.xaccel());
        String receipts = ServerBlocks.of(conf, PORTS.receipts());
        String include = ReceiptSetup.include(Path.of("/tmp/ng")).toString();
        assertEquals("/tmp/" + ReceiptSetup.INCLUDE_NAME, include);
        String hide = blockByIndentation(filled(BenchNginxConf.XACCEL_TEMPLATE, 1),
                l -> l.startsWith("proxy_hide_header"));
        assertEquals(xaccel.replace("listen 127.0.0.1:20002;", "listen 127.0.0.1:20010;")
                .replace("proxy_set_header X-Sendfile-Type X-Accel-Redirect;\n",
                        "proxy_set_header X-Sendfile-Type X-Accel-Redirect;\n" + hide + "\n")
                .replace("# include           xaccel-receipts.conf;", "include           " + include + ";"),
                receipts);
        String xaccelTemplate = filled(BenchNginxConf.XACCEL_TEMPLATE, 1);
        int format = xaccelTemplate.indexOf("    log_format  xaccel_receipt ");
        assertTrue(format > 0, "no xaccel_receipt format in the template");
        // the format's two lines through its ';', as the template writes them
        assertTrue(conf.contains(xaccelTemplate.substring(format, xaccelTemplate.indexOf(';', format) + 1)), conf);
    }

    /** The receipts template rendered as its comment says (envsubst of ${RECEIPTS_FILE} alone), nothing else. */
    @Test
    void theReceiptsIncludeIsTheTemplateWithItsFile(@TempDir Path dir) throws Exception {
        Path prefix = dir.resolve("nginx");
        Path log = dir.resolve("receipts/xaccel-receipts.log");
        ReceiptSetup.writeInclude(TEMPLATES, prefix, log);
        String t = Files.readString(TEMPLATES.resolve(ReceiptSetup.TEMPLATE), StandardCharsets.UTF_8);
        assertEquals(t.replace("${RECEIPTS_FILE}", log.toString()),
                Files.readString(ReceiptSetup.include(prefix), StandardCharsets.UTF_8));
        assertTrue(t.contains("access_log  ${RECEIPTS_FILE}  xaccel_receipt  buffer=64k  flush=1s;"), t);
    }

    @Test
    void nginxAcceptsTheRenderedConfig(@TempDir Path dir) throws Exception {
        Path nginx = Stream.of("/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx").map(Path::of)
                .filter(Files::isExecutable).findFirst().orElse(null);
        assumeTrue(nginx != null, "nginx is not installed");
        // the prefix as the shared NginxServer lays it out: conf/, logs/, tmp/
        Path prefix = dir.resolve("nginx");
        for (String d : List.of("conf", "logs", "tmp")) {
            Files.createDirectories(prefix.resolve(d));
        }
        Path data = Files.createDirectories(dir.resolve("data"));
        Path conf = prefix.resolve("conf/nginx.conf");
        ReceiptSetup.writeInclude(TEMPLATES, prefix, dir.resolve("xaccel-receipts.log"));
        Files.writeString(conf, BenchNginxConf.render(TEMPLATES, params(prefix, data), PORTS), StandardCharsets.UTF_8);
        Process p = new ProcessBuilder(nginx.toString(), "-t", "-q", "-p", prefix + "/", "-e", "logs/error.log",
                "-c", "conf/nginx.conf").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "nginx -t did not finish");
        assertEquals(0, p.exitValue(), out);
    }
}
