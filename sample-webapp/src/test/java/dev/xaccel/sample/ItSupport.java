package dev.xaccel.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.function.BooleanSupplier;

/** Paths handed over by the build (failsafe systemPropertyVariables) and small helpers for the ITs. */
final class ItSupport {

    static final Path NGINX = Path.of("/usr/sbin/nginx");
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

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        }
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

    /** Polls until the condition holds; false on timeout. */
    static boolean await(Duration timeout, BooleanSupplier condition) {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (condition.getAsBoolean()) {
                return true;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return condition.getAsBoolean();
    }

    /** The last {@code max} characters of a text file, for failure messages. */
    static String tail(Path file, int max) {
        try {
            String s = Files.readString(file);
            return s.length() <= max ? s : "..." + s.substring(s.length() - max);
        } catch (IOException e) {
            return "(" + file + ": " + e + ")";
        }
    }
}
