package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import dev.xaccel.testsupport.RawHttp;
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

    @Override
    void whileStreaming() throws Exception {
        assertEquals(List.of(), tempFiles(), "nginx buffered the object to disk");
    }

    @Override
    void afterStreaming() {
        assertFalse(stack.nginx.errorLog().contains("temporary file"), stack.nginx.errorLog());
    }

    private List<Path> tempFiles() throws Exception {
        Path dir = stack.nginx.prefix().resolve("tmp");
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).toList();
        }
    }
}
