package dev.xaccel.testsupport.nginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NginxUserTest {

    @Test
    void aDirectoryBelowAPrivateOneIsNotReachable(@TempDir Path dir) throws Exception {
        Path open = Files.createDirectories(dir.resolve("open/media"));
        Path closed = Files.createDirectories(dir.resolve("closed/media"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir.resolve("open"), PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(dir.resolve("closed"), PosixFilePermissions.fromString("rwx------"));
        boolean tmpReachable = NginxUser.othersCanReach(dir);
        assertEquals(tmpReachable, NginxUser.othersCanReach(open));
        assertFalse(NginxUser.othersCanReach(closed));
        assertFalse(NginxUser.othersCanReach(dir.resolve("missing")));
    }

    @Test
    void onlyRootWithAnUnreachableDirectoryNeedsUserRoot(@TempDir Path dir) throws Exception {
        Path closed = Files.createDirectories(dir.resolve("closed"));
        Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rwx------"));
        Optional<String> expected = NginxUser.runningAsRoot() ? Optional.of("user root;") : Optional.empty();
        assertEquals(expected, NginxUser.directive(List.of(closed)));
        assertEquals(Optional.empty(), NginxUser.directive(List.of(Path.of("/"))));
        assertTrue(NginxUser.othersCanReach(Path.of("/")));
    }
}
