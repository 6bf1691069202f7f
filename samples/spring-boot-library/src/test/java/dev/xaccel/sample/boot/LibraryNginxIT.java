package dev.xaccel.sample.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.ContentDisposition;

import dev.xaccel.testsupport.RawHttp;

/**
 * The sample as ./demo-spring runs it: the generated demo library, the application on a random port, nginx from
 * the sample's own template in front. Downloads come back byte for byte with nothing sent by the application
 * (access log {@code ulen=0}); Spring Security's login comes first.
 * <p>
 * nginx is started here with three placeholders and {@code daemon off;} (this module has no fixture of its own;
 * fold into xaccel-test-support's nginx server once that exists).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"library.demo-root=target/it-demo-library", "xaccel.jmx-name=none"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LibraryNginxIT {

    @LocalServerPort
    int appPort;

    @Autowired
    Catalog catalog;

    @Autowired
    LibraryProperties library;

    private Process nginx;
    private Path prefix;
    private int nginxPort;

    @BeforeAll
    void startNginx() throws Exception {
        prefix = Path.of("target/it-nginx").toAbsolutePath();
        Files.createDirectories(prefix.resolve("logs"));
        Files.createDirectories(prefix.resolve("tmp"));
        Files.deleteIfExists(prefix.resolve("logs/access.log"));
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            nginxPort = s.getLocalPort();
        }
        String root = library.getRoot().toRealPath().toString();
        Files.writeString(prefix.resolve("nginx.conf"), Files.readString(SampleNginxConfTest.TEMPLATE)
                .replace("${NGINX_PORT}", Integer.toString(nginxPort)).replace("${APP_PORT}", Integer.toString(appPort))
                .replace("${LIBRARY}", root));
        // started by root, nginx's workers run as nobody, who may not enter a checkout below /root
        String globals = "daemon off;" + ("root".equals(System.getProperty("user.name")) ? " user root;" : "");
        String binary = Files.isExecutable(Path.of("/usr/sbin/nginx")) ? "/usr/sbin/nginx" : "nginx";
        nginx = new ProcessBuilder(binary, "-p", prefix + "/", "-e", "logs/error.log", "-c", "nginx.conf", "-g",
                globals).redirectErrorStream(true).redirectOutput(prefix.resolve("logs/stdout.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", nginxPort), 200);
                return;
            } catch (IOException notYet) {
                assertThat(nginx.isAlive()).as("nginx: %s", Files.readString(prefix.resolve("logs/stdout.log")))
                        .isTrue();
                assertThat(System.nanoTime()).as("nginx listening").isLessThan(deadline);
                Thread.sleep(20);
            }
        }
    }

    @AfterAll
    void stopNginx() throws Exception {
        if (nginx != null) {
            List<ProcessHandle> workers = nginx.descendants().toList();
            nginx.destroy(); // SIGTERM: nginx's fast shutdown
            if (!nginx.waitFor(5, TimeUnit.SECONDS)) {
                nginx.destroyForcibly();
            }
            workers.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static String demo() {
        return "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void everyFileOfTheDemoLibraryComesFromNginx() throws Exception {
        assertThat(catalog.entries()).hasSize(DemoLibrary.FILES.size());
        for (Catalog.Entry e : catalog.entries()) {
            RawHttp.Response r = RawHttp.get("/files/" + e.id()).header("Authorization", demo())
                    .header("X-Request-Id", "sample-" + e.id()).send(nginxPort);
            assertThat(r.status()).as(e.path()).isEqualTo(200);
            assertThat(r.body()).as(e.path()).isEqualTo(Files.readAllBytes(catalog.file(e)));
            assertThat(ContentDisposition.parse(r.header("Content-Disposition")).getFilename()).as(e.path())
                    .isEqualTo(e.name());
        }
        String log = awaitLog("sample-" + (catalog.entries().size() - 1));
        assertThat(log).contains("uri=\"/_xaccel/library/").contains("ulen=0 ");
    }

    @Test
    void seekingIsNginxs() {
        Catalog.Entry mp3 = catalog.entries().stream().filter(e -> e.path().endsWith(".mp3")).findFirst().orElseThrow();
        RawHttp.Response r = RawHttp.get("/files/" + mp3.id()).header("Authorization", demo())
                .header("Range", "bytes=1000-1999").send(nginxPort);
        assertThat(r.status()).isEqualTo(206);
        byte[] all = DemoLibrary.content(DemoLibrary.FILES.indexOf(mp3.path()));
        assertThat(r.body()).isEqualTo(Arrays.copyOfRange(all, 1000, 2000));
    }

    @Test
    void loginComesFirst() {
        RawHttp.Response r = RawHttp.get("/files/0").header("Accept", "text/html").send(nginxPort);
        assertThat(r.status()).isEqualTo(302);
        assertThat(r.header("Location")).endsWith("/login");
        assertThat(RawHttp.get("/login").send(nginxPort).bodyText()).contains("<form");
        RawHttp.Response basic = RawHttp.get("/files/0").header("Authorization", "Basic ZGVtbzpub3Bl").send(nginxPort);
        assertThat(basic.status()).isEqualTo(401);
        assertThat(RawHttp.get("/api/files").header("Authorization", demo()).send(nginxPort).bodyText())
                .contains("\"path\":\"Readme.txt\"");
    }

    @Test
    void theInternalLocationIsNotPublic() {
        assertThat(RawHttp.get("/_xaccel/library/Readme.txt").header("Authorization", demo()).send(nginxPort).status())
                .isEqualTo(404);
    }

    private String awaitLog(String requestId) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            Path log = prefix.resolve("logs/access.log");
            if (Files.exists(log)) {
                for (String line : Files.readAllLines(log)) {
                    if (line.contains("rid=\"" + requestId + "\"")) {
                        return line;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no access log line for " + requestId);
    }
}
