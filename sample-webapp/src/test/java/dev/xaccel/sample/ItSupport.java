package dev.xaccel.sample;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Paths handed over by the build (failsafe systemPropertyVariables) and the sample's own small helpers for the ITs;
 * ports, polling, log tails and the servers are xaccel-test-support's.
 */
final class ItSupport {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private ItSupport() {
    }

    /** A path from a system property set by the pom; fails with a clear message when run outside Maven. */
    static Path property(String name) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set: run the ITs through "
                    + "`mvn -pl sample-webapp -am verify` (failsafe passes it)");
        }
        return Path.of(v).toAbsolutePath();
    }

    static Path work(String name) throws IOException {
        Path dir = property("xaccel.it.work").resolve(name);
        Files.createDirectories(dir);
        return dir;
    }

    /** Fails (not skips) with how to install what is missing: CI installs these packages. */
    static void require(Path executable, String debianPackage) {
        if (!Files.isExecutable(executable)) {
            throw new AssertionError(executable + " is missing: install it with `sudo apt-get install "
                    + debianPackage + "` (.ci/run does this in CI)");
        }
    }

    /** A fresh signed-link secret, like ./demo makes: 36 random bytes, base64 (48 characters, no padding). */
    static String newLinkSecret() {
        byte[] b = new byte[36];
        new java.security.SecureRandom().nextBytes(b);
        return java.util.Base64.getEncoder().encodeToString(b);
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    static String sha256(Path file) throws IOException {
        MessageDigest md = digest();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            int n;
            while ((n = in.read(buf)) > 0) {
                md.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md.digest());
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
