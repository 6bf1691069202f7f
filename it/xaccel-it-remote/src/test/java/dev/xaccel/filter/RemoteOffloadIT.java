package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.boundary.BoundaryCheck;

import org.junit.jupiter.api.Test;

/** The remote scenarios through real nginx with the shipped remote template: the object never passes the JVM. */
class RemoteOffloadIT extends AbstractRemoteIT {

    RemoteOffloadIT() {
        super("remote-offload", true);
    }

    @Test
    void theObjectIsOffloadedNotStreamedByTomcat() throws Exception {
        String target = object("offloaded.bin", BoundaryCheck.uniqueContent("offloaded", 50_000));
        RawHttp.Response r = authGet(target).header("X-Request-Id", "offloaded-1").send(stack.port());
        assertEquals(200, r.status());
        String line = stack.nginx.awaitAccessLogLine("offloaded-1");
        assertTrue(line.contains("ulen=0 : 50000"), "Tomcat sent 0 bytes, the store 50000: " + line);
    }

    @Test
    void aClientCannotReachTheInternalLocation() throws Exception {
        object("direct.bin", BoundaryCheck.uniqueContent("direct", 1000));
        RawHttp.Response r = authGet("/_xaccel/remote/http/127.0.0.1:" + stack.store.port() + "/media/direct.bin")
                .send(stack.port());
        assertEquals(404, r.status(), r.toString());
    }

    /**
     * The measured encoding table (target/remote-encoding.md): per key the redirect the filter sent, the request
     * target the store received from nginx and the store's answer. For every key the store accepts, nginx must have
     * rebuilt the presigned URL byte for byte and the body must be the object.
     */
    @Test
    void nginxRebuildsEveryPresignedUrlByteForByte() throws Exception {
        List<String> keys = new ArrayList<>(keys());
        keys.add("dot/../dot.bin");
        StringBuilder table = new StringBuilder("| key | X-Accel-Redirect (filter) "
                + "| request target at the store (nginx) "
                + "| store's answer |\n|---|---|---|---|\n");
        List<String> wrong = new ArrayList<>();
        int id = 0;
        for (String key : keys) {
            byte[] content = BoundaryCheck.uniqueContent("enc " + key, 2000);
            String shown = key.replace("\u0001", "\\u0001").replace("|", "\\|");
            try {
                stack.store.put(key, content);
            } catch (java.io.IOException e) {
                table.append("| `").append(shown).append("` | — | — | refuses the key: ")
                        .append(e.getMessage().replaceAll("(?s).*: (\\d{3}).*", "$1")).append(" |\n");
                continue;
            }
            URI url = stack.store.presignGet(key, Duration.ofMinutes(1));
            String name = "enc" + id++;
            stack.objects.fixed(name, url);
            RawHttp.Response decision = authGet("/objects/" + name).header("X-Sendfile-Type", "X-Accel-Redirect")
                    .send(stack.tomcat.port());
            RawHttp.Response r = authGet("/objects/" + name).send(stack.port());
            String presigned = url.getRawPath() + "?" + url.getRawQuery();
            String received = stack.store.received().stream().map(S3Store.Received::target)
                    .filter(t -> t.startsWith(url.getRawPath() + "?") && t.contains("X-Amz-Expires=60&"))
                    .reduce((a, b) -> b).orElse("(nothing)");
            boolean exact = received.equals(presigned) && r.status() == 200 && Arrays.equals(content, r.body());
            if (!exact) {
                wrong.add(key + ": store got " + received + " for " + presigned + ", " + r.status());
            }
            table.append("| `").append(shown).append("` | `")
                    .append(String.valueOf(decision.header("X-Accel-Redirect")).replaceAll("\\?.*", "?…"))
                    .append("` | `").append(received.replaceAll("\\?.*", "?…")).append("`")
                    .append(received.equals(presigned) ? " (= presigned, query too)" : " (≠ " + presigned + ")")
                    .append(" | ").append(r.status())
                    .append(Arrays.equals(content, r.body()) ? ", byte-exact" : ", WRONG BODY")
                    .append(" |\n");
        }
        Files.writeString(TestPaths.target().resolve("remote-encoding.md"), table, StandardCharsets.UTF_8);
        System.out.println(table);
        assertEquals(List.of(), wrong);
    }

    /**
     * nginx unlinks a temp file as soon as it has created it, so the directory stays empty either way: what shows
     * one is an open descriptor of a worker into tmp/ ("... (deleted)").
     */
    @Override
    void whileStreaming() throws Exception {
        assertEquals(List.of(), openTempFiles(), "nginx buffered the object to disk");
    }

    /** ... and the warning nginx logs for each response it buffers to a temp file. */
    @Override
    void afterStreaming() {
        assertFalse(stack.nginx.errorLog().contains("buffered to a temporary file"), stack.nginx.errorLog());
    }

    private List<String> openTempFiles() throws Exception {
        String tmp = stack.nginx.prefix().resolve("tmp").toString();
        List<String> open = new ArrayList<>();
        for (ProcessHandle worker : ProcessHandle.of(stack.nginx.pid()).orElseThrow().descendants().toList()) {
            Path fds = Path.of("/proc", Long.toString(worker.pid()), "fd");
            try (Stream<Path> all = Files.list(fds)) {
                for (Path fd : all.toList()) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith(tmp)) {
                            open.add(target);
                        }
                    } catch (java.io.IOException closedMeanwhile) {
                        // the descriptor went away while listing
                    }
                }
            }
        }
        return open;
    }
}
