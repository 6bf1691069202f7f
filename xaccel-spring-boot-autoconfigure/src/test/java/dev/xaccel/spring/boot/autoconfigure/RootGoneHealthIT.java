package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.jayway.jsonpath.JsonPath;

import dev.xaccel.testsupport.RawHttp;

/**
 * The scenario of RootGoneIT (it/xaccel-it-reliability) through Spring Boot's health endpoint: the data root is
 * renamed away (an unmount), then replaced by a regular file (unreadable for root too), and put back each time.
 * Meanwhile no file is requested: the {@code xaccel} contributor looks at the root when the endpoint asks. The
 * endpoint answers 503 with {@code xaccel} DOWN while the root is gone, 200 UP once it is back, and never names
 * the path.
 */
class RootGoneHealthIT extends LibraryAppTestBase {

    @Test
    void healthIsDownWhileTheRootIsGoneAndUpWhenItIsBack() throws Exception {
        Path root = MEDIA;
        Path away = root.resolveSibling("boot-it-media.away");
        try {
            assertUp(tomcatPort, "before");
            Files.move(root, away);
            assertDown(tomcatPort, root, "renamed away");
            Files.move(away, root);
            assertUp(tomcatPort, "renamed back");

            Files.move(root, away);
            Files.writeString(root, "not a directory\n");
            assertDown(tomcatPort, root, "replaced by a regular file");
            Files.delete(root);
            Files.move(away, root);
            assertUp(tomcatPort, "the directory put back");
        } finally {
            if (Files.isRegularFile(root)) {
                Files.delete(root);
            }
            if (Files.isDirectory(away) && !Files.exists(root)) {
                Files.move(away, root);
            }
        }
    }

    private static void assertUp(int port, String when) {
        RawHttp.Response r = RawHttp.get("/actuator/health").send(port);
        assertThat(r.status()).as("%s: %s", when, r).isEqualTo(200);
        assertXaccel(r, "UP", 0, when);
    }

    private static void assertDown(int port, Path root, String when) {
        RawHttp.Response r = RawHttp.get("/actuator/health").send(port);
        assertThat(r.status()).as("%s: %s", when, r).isEqualTo(503);
        assertThat(r.bodyText()).as(when).doesNotContain(root.getFileName().toString());
        assertThat((String) JsonPath.read(r.bodyText(), "$.status")).as(when).isEqualTo("DOWN");
        assertXaccel(r, "DOWN", 1, when);
    }

    /** By path, not by text: Spring Boot 3.5 (Jackson 2) and 4 (Jackson 3) order the members differently. */
    private static void assertXaccel(RawHttp.Response r, String status, int missingRoots, String when) {
        assertThat((String) JsonPath.read(r.bodyText(), "$.components.xaccel.status")).as(when).isEqualTo(status);
        assertThat((Integer) JsonPath.read(r.bodyText(), "$.components.xaccel.details.xaccel.missingRoots"))
                .as(when).isEqualTo(missingRoots);
    }
}
