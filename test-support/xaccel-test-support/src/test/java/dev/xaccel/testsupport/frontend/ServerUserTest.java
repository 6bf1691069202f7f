package dev.xaccel.testsupport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerUserTest {

    @Test
    void anAccountOnlyForRootAndOnlyWhenItCanReachEveryDirectory(@TempDir Path dir) throws Exception {
        Path closed = Files.createDirectories(dir.resolve("closed/media"));
        Files.setPosixFilePermissions(dir.resolve("closed"), PosixFilePermissions.fromString("rwx------"));
        Optional<String> open = ServerUser.runningAsRoot() ? Optional.of("www-data") : Optional.empty();
        assertEquals(open, ServerUser.unprivileged("www-data", List.of(Path.of("/"))));
        assertEquals(Optional.empty(), ServerUser.unprivileged("www-data", List.of(Path.of("/"), closed)));
    }

    @Test
    void accountsThatExist() {
        assertEquals(true, ServerUser.exists("root"));
        assertEquals(false, ServerUser.exists("no-such-account-xaccel"));
    }
}
