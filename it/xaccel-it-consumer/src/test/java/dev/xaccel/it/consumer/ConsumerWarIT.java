package dev.xaccel.it.consumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.Ports;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.ServerUser;
import dev.xaccel.testsupport.nginx.NginxUser;
import dev.xaccel.testsupport.tomcat.CatalinaLauncher;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/deploy-your-war.md done: the consumer project (src/it/consumer: the BOM imported, the filter declared in
 * web.xml as the page shows it) built by the page's Maven command, deployed as ROOT.war to the Tomcat 11
 * distribution (catalina.sh, the page's bin/setenv.sh, the distribution's server.xml bound to loopback), nginx
 * started by the page's commands from docs/nginx/xaccel.conf.template; then the answers the page promises.
 */
class ConsumerWarIT {

    private static final Path ROOT = Path.of(System.getProperty("xaccel.root"));
    private static final Path WORK = Path.of("target", "consumer-it").toAbsolutePath();
    private static final String TOKEN = "t" + Long.toHexString(new Random().nextLong());
    private static final String[] AUTH = {"Authorization", "Bearer " + TOKEN};
    private static final String MARKER = "X-Sendfile-Type";
    private static final byte[] REPORT = new byte[300_000];

    private static DeployDoc doc;
    private static Path war;
    private static Path media;
    private static CatalinaLauncher tomcat;
    private static DocNginx nginx;

    @BeforeAll
    static void buildDeployAndPutNginxInFront() throws Exception {
        TestPaths.fresh(WORK);
        doc = DeployDoc.read(ROOT);
        war = ConsumerBuild.war(doc.block("ConsumerWarIT: build"), Path.of("src/it/consumer"), WORK.resolve("files"));
        media = Files.createDirectories(WORK.resolve("media")).toRealPath();
        new Random(7).nextBytes(REPORT);
        Files.write(media.resolve("report.pdf"), REPORT);
        tomcat = tomcat("tomcat", true);
        tomcat.awaitLog(CatalinaLauncher.STARTED, Duration.ofSeconds(90));
        nginx = nginx("nginx", media, workerUser(media));
    }

    @AfterAll
    static void stop() throws IOException {
        try (CatalinaLauncher t = tomcat; DocNginx n = nginx) {
            assertFalse(t == null || t.log().contains(TOKEN), "the token never reaches catalina.out");
        }
    }

    @Test
    void anAuthorizedFileComesFromNginxByteExactAndTomcatSendsNoByteOfIt() throws Exception {
        JdkHttp http = new JdkHttp(nginx.port());
        HttpResponse<byte[]> mapped = http.get("/media/report.pdf", AUTH);
        assertEquals(200, mapped.statusCode());
        assertArrayEquals(REPORT, mapped.body());
        HttpResponse<byte[]> declared = http.get("/download/report.pdf", AUTH);
        assertEquals(200, declared.statusCode());
        assertArrayEquals(REPORT, declared.body());
        assertTrue(declared.headers().firstValue("Content-Disposition").orElse("").startsWith("attachment"),
                declared.headers().map().toString());
        long offloaded = nginx.accessLog().lines()
                .filter(l -> l.contains("uri=\"/_xaccel/media/report.pdf\"") && l.contains(" 200 300000 ")
                        && l.contains("ulen=0 ")).count();
        assertTrue(offloaded >= 2, nginx.accessLog());
    }

    @Test
    void withoutTheTokenTheAnswerIs401AndNoByteOfTheFile() throws Exception {
        JdkHttp http = new JdkHttp(nginx.port());
        for (String path : List.of("/media/report.pdf", "/download/report.pdf")) {
            for (String[] auth : List.of(new String[0], new String[] {"Authorization", "Bearer wrong"})) {
                HttpResponse<byte[]> r = http.get(path, auth);
                assertEquals(401, r.statusCode(), path);
                assertEquals("Bearer", r.headers().firstValue("WWW-Authenticate").orElse(null), path);
                assertTrue(r.body().length < 1000, path);
            }
        }
    }

    @Test
    void aRangeIsAnswered206ByNginx() throws Exception {
        HttpResponse<byte[]> r = new JdkHttp(nginx.port()).get("/download/report.pdf", "Authorization", AUTH[1],
                "Range", "bytes=1000-1999");
        assertEquals(206, r.statusCode());
        assertEquals("bytes 1000-1999/300000", r.headers().firstValue("Content-Range").orElse(null));
        assertArrayEquals(Arrays.copyOfRange(REPORT, 1000, 2000), r.body());
    }

    @Test
    void theInternalLocationIs404FromOutside() throws Exception {
        HttpResponse<byte[]> r = new JdkHttp(nginx.port()).get("/_xaccel/media/report.pdf", AUTH);
        assertEquals(404, r.statusCode());
        assertTrue(r.body().length < 1000);
    }

    @Test
    void tomcatAskedWithoutTheMarkerSendsTheFileItself() throws Exception {
        HttpResponse<byte[]> r = new JdkHttp(tomcat.httpPort()).get("/media/report.pdf", AUTH);
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("X-Accel-Redirect").isEmpty());
        assertArrayEquals(REPORT, r.body());
    }

    @Test
    void theMarkerCountsOnlyFromAnAddressInTrustedProxies() throws Exception {
        // from 127.0.0.1, as nginx (and a curl on the same host): the empty answer nginx would act on
        RawHttp.Response trusted = getFrom("127.0.0.1", "/media/report.pdf");
        assertEquals(200, trusted.status());
        assertEquals("0", trusted.header("Content-Length"));
        assertEquals("/_xaccel/media/report.pdf", trusted.header("X-Accel-Redirect"));
        // from 127.0.0.2, outside trustedProxies (127.0.0.1): the marker is ignored, the filter sends the file
        RawHttp.Response other = getFrom("127.0.0.2", "/media/report.pdf");
        assertEquals(200, other.status());
        assertNull(other.header("X-Accel-Redirect"));
        assertArrayEquals(REPORT, other.body());
    }

    @Test
    void workersAsNobodyCannotReadADataRootBelowAPrivateDirectory() throws Exception {
        assumeTrue(ServerUser.runningAsRoot(), "only a master started by root runs its workers as another user");
        Path hidden = Files.createDirectories(WORK.resolve("private/media"));
        Files.copy(media.resolve("report.pdf"), hidden.resolve("report.pdf"));
        Files.setPosixFilePermissions(hidden.getParent(), PosixFilePermissions.fromString("rwx------"));
        // the same Tomcat behind a second nginx whose location aliases the copy under the private directory
        try (DocNginx second = nginx("nginx-private", hidden.toRealPath(), "nobody nogroup")) {
            HttpResponse<byte[]> r = new JdkHttp(second.port()).get("/media/report.pdf", AUTH);
            assertEquals(403, r.statusCode());
            assertTrue(second.errorLog().contains("(13: Permission denied)"), second.errorLog());
        }
    }

    @Test
    void aFilterThatCannotStartSaysWhyInCatalinaOutAndTheApplicationAnswers404() throws Exception {
        try (CatalinaLauncher broken = tomcat("tomcat-no-media-root", false)) {
            String log = broken.awaitLog(CatalinaLauncher.STARTED, Duration.ofSeconds(90));
            String line = log.lines().filter(l -> l.contains("XAccelFilter [xaccel] did not start")).findFirst()
                    .orElseThrow(() -> new AssertionError("no line of the filter in catalina.out:\n" + log));
            assertTrue(line.contains(" SEVERE ") && line.contains("Invalid value [${env:MEDIA_ROOT} => /_xaccel/media/]"
                    + " for init-param [locations]: placeholder ${env:MEDIA_ROOT} is not set"), line);
            assertTrue(log.contains("One or more Filters failed to start"), log);
            JdkHttp http = new JdkHttp(broken.httpPort());
            for (String path : List.of("/media/report.pdf", "/download/report.pdf", "/")) {
                assertEquals(404, http.get(path, AUTH).statusCode(), path);
            }
        }
    }

    @Test
    void aPlainEnvsubstEmptiesNginxsOwnVariablesAndNginxRefusesTheResult() throws Exception {
        String named = "envsubst '${NGINX_PORT} ${TOMCAT_PORT} ${MEDIA_ROOT}'";
        String commands = doc.block("ConsumerWarIT: nginx").lines().filter(l -> !l.startsWith("nginx -p"))
                .map(l -> l.replace(named, "envsubst")).reduce("", (a, l) -> a + l + "\n");
        assertTrue(commands.contains("envsubst < xaccel.conf.template") && commands.contains("nginx -t"), commands);
        Map<String, String> values = values("nginx-plain-envsubst", media, workerUser(media));
        Path log = WORK.resolve("nginx-plain-envsubst-commands.log");
        Optional<Integer> status = DocNginx.run(commands, template("nginx-plain-envsubst"), values, log);
        assertEquals(Optional.of(1), status, TestPaths.tail(log, 2000));
        assertTrue(Files.readString(log).contains("invalid number of arguments in \"proxy_set_header\""),
                TestPaths.tail(log, 2000));
        assertTrue(Files.readString(Path.of(values.get("PREFIX"), "conf/nginx.conf"))
                .contains("proxy_set_header    Host ;"));
    }

    @Test
    void userNobodyAloneFailsWhereThereIsNoGroupNobody() throws Exception {
        assumeTrue(ServerUser.runningAsRoot(), "only a master started by root reads the user directive");
        assumeTrue(Files.readAllLines(Path.of("/etc/group")).stream().noneMatch(l -> l.startsWith("nobody:")),
                "this system has a group nobody (Debian has none)");
        Path log = WORK.resolve("nginx-user-nobody-commands.log");
        // the page's commands up to nginx -t: nothing is started
        String commands = doc.block("ConsumerWarIT: nginx").lines().filter(l -> !l.startsWith("nginx -p"))
                .reduce("", (a, l) -> a + l + "\n");
        Optional<Integer> status = DocNginx.run(commands, template("nginx-user-nobody"),
                values("nginx-user-nobody", media, "nobody"), log);
        assertEquals(Optional.of(1), status, TestPaths.tail(log, 2000));
        assertTrue(Files.readString(log).contains("getgrnam(\"nobody\") failed"), TestPaths.tail(log, 2000));
    }

    /** The distribution in a base of its own: the WAR as ROOT.war, the page's setenv.sh with this test's values. */
    private static CatalinaLauncher tomcat(String name, boolean withMediaRoot) throws IOException {
        Path home = Path.of(System.getProperty("xaccel.it.tomcatDist"));
        String serverXml = Files.readString(home.resolve("conf/server.xml"), StandardCharsets.UTF_8);
        String ports = replaceOnce(serverXml, "<Server port=\"8005\"", "<Server port=\"${SHUTDOWN_PORT}\"");
        String loopback = replaceOnce(ports, "<Connector port=\"8080\"",
                "<Connector address=\"127.0.0.1\" port=\"${HTTP_PORT}\"");
        String setenv = replaceOnce(replaceOnce(doc.block("ConsumerWarIT: setenv.sh"), "/srv/media", media.toString()),
                "change-me", TOKEN);
        if (!withMediaRoot) {
            setenv = setenv.lines().filter(l -> !l.contains("MEDIA_ROOT=")).reduce("", (a, l) -> a + l + "\n");
        }
        return CatalinaLauncher.builder(home, WORK.resolve(name)).serverXml(loopback).copy(war, "webapps/ROOT.war")
                .file("bin/setenv.sh", setenv).start();
    }

    /** The page's nginx commands with this test's values: a free port, this Tomcat, {@code root}, {@code user}. */
    private static DocNginx nginx(String name, Path root, String user) throws IOException {
        return DocNginx.start(doc.block("ConsumerWarIT: nginx"), template(name), values(name, root, user));
    }

    /** A directory holding a copy of docs/nginx/xaccel.conf.template, as the page's commands expect. */
    private static Path template(String name) throws IOException {
        Path dir = Files.createDirectories(WORK.resolve(name + "-template"));
        Files.copy(ROOT.resolve("docs/nginx/xaccel.conf.template"), dir.resolve("xaccel.conf.template"));
        return dir;
    }

    /** The page's variables: {@code WORK/name} as prefix, a free port, this Tomcat, {@code root}, {@code user}. */
    private static Map<String, String> values(String name, Path root, String user) {
        Map<String, String> values = new LinkedHashMap<>();
        values.put("PREFIX", WORK.resolve(name).toString());
        values.put("NGINX_PORT", Integer.toString(Ports.freeLoopbackPort()));
        values.put("TOMCAT_PORT", Integer.toString(tomcat.httpPort()));
        values.put("MEDIA_ROOT", root.toString());
        values.put("NGINX_USER", user);
        return values;
    }

    /**
     * Who nginx's workers run as, by the page's rule: started by root, a user that can read the data root (nobody,
     * with Debian's group for it, unless the root lies below a private directory such as a checkout under /root:
     * then root, as the other tests' nginx); otherwise this user (nginx ignores the directive).
     */
    private static String workerUser(Path root) {
        if (!ServerUser.runningAsRoot()) {
            return System.getProperty("user.name");
        }
        return NginxUser.directive(List.of(root)).isPresent() ? "root" : "nobody nogroup";
    }

    /** A GET with token and marker straight to Tomcat, from {@code source} (a loopback address of this host). */
    private static RawHttp.Response getFrom(String source, String path) throws IOException {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(source, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", tomcat.httpPort()), 5000);
            socket.setSoTimeout(RawHttp.TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH[0] + ": " + AUTH[1] + "\r\n" + MARKER
                    + ": X-Accel-Redirect\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            in.transferTo(raw);
            return RawHttp.Response.parse("GET", raw.toByteArray());
        }
    }

    private static String replaceOnce(String text, String old, String replacement) {
        int at = text.indexOf(old);
        if (at < 0 || text.indexOf(old, at + 1) >= 0) {
            throw new IllegalStateException("expected [" + old + "] exactly once in:\n" + text);
        }
        return text.replace(old, replacement);
    }
}
