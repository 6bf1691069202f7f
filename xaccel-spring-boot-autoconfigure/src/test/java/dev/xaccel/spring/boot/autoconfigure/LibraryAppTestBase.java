package dev.xaccel.spring.boot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.xaccel.spring.boot.autoconfigure.app.TestLibraryApplication;
import dev.xaccel.spring.boot.autoconfigure.app.TestMedia;
import dev.xaccel.testsupport.RawHttp;

/**
 * The one application context the end-to-end tests share (Spring caches it): {@link TestLibraryApplication} on a
 * random port with the starter configured by properties only — one location on the test media, signed links,
 * static resources from the file system under {@code /static/**}, Actuator's info and health endpoints.
 */
@SpringBootTest(classes = TestLibraryApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "xaccel.signed-link-secret=" + LibraryAppTestBase.SECRET,
            "xaccel.signed-link-prefix=/s/media/",
            "xaccel.static-resources=true",
            "spring.mvc.static-path-pattern=/static/**",
            "management.endpoints.web.exposure.include=health,info",
            "management.endpoint.health.show-details=always",
            "xaccel.connector.defer-accept-seconds=1"
        })
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LibraryAppTestBase {

    /** A signed-link secret that must never show up anywhere (info endpoint, logs of the configuration). */
    static final String SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";
    static final Path MEDIA = Path.of("target", "boot-it-media").toAbsolutePath();
    static final byte[] CSS = "body { color: #333; }\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] BIG = TestMedia.content(7);

    @LocalServerPort
    int tomcatPort;

    @DynamicPropertySource
    static void media(DynamicPropertyRegistry registry) {
        Path root = TestMedia.create(MEDIA);
        try {
            Files.createDirectories(root.resolve("static"));
            Files.write(root.resolve("static/site.css"), CSS);
            Files.write(root.resolve("static/big.bin"), BIG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // one property source for the whole list: Spring Boot never merges a list across sources
        registry.add("xaccel.locations[0].root", root::toString);
        registry.add("xaccel.locations[0].uri", () -> "/_xaccel/media/");
        registry.add("spring.web.resources.static-locations", () -> root.resolve("static").toUri().toString());
    }

    static RawHttp.Request get(String target, String user) {
        RawHttp.Request r = RawHttp.get(target);
        return user == null ? r : r.header("Authorization", basic(user));
    }

    static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString(
                (user + ":" + TestLibraryApplication.PASSWORD).getBytes(StandardCharsets.UTF_8));
    }
}
