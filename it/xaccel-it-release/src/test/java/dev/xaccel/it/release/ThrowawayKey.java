package dev.xaccel.it.release;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A signing key made for one test run: a GNUPGHOME of its own (under {@code target/}) holding a fresh ed25519 key
 * with a random passphrase, as a release engineer's environment would hold the real one. {@link #close()} stops the
 * gpg-agent that gpg started for this home.
 */
final class ThrowawayKey implements AutoCloseable {

    private final Path home;
    private final String passphrase = UUID.randomUUID().toString();

    private ThrowawayKey(Path home) {
        this.home = home;
    }

    static ThrowawayKey generate(Path home) throws IOException, InterruptedException {
        Files.createDirectories(home);
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        ThrowawayKey key = new ThrowawayKey(home);
        key.gpg("--pinentry-mode", "loopback", "--passphrase", key.passphrase, "--quick-gen-key",
                "xaccel release test <release-test@xaccel.invalid>", "ed25519", "sign", "1d");
        return key;
    }

    /** The environment the release build and the check take the key from. */
    Map<String, String> environment() {
        return Map.of("GNUPGHOME", home.toString(), "MAVEN_GPG_PASSPHRASE", passphrase);
    }

    /** Signs {@code file} again ({@code file.asc}), as the release build does. */
    void sign(Path file) throws IOException, InterruptedException {
        gpg("--yes", "--pinentry-mode", "loopback", "--passphrase", passphrase, "--armor", "--detach-sign",
                file.toString());
    }

    private void gpg(String... args) throws IOException, InterruptedException {
        Commands.run(home, environment(), concat(List.of("gpg", "--batch"), List.of(args)));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return Stream.concat(a.stream(), b.stream()).toList();
    }

    @Override
    public void close() throws IOException, InterruptedException {
        Commands.run(home, environment(), List.of("gpgconf", "--kill", "gpg-agent"));
    }
}
