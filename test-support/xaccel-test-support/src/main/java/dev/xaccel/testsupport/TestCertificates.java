package dev.xaccel.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throwaway PKI for HTTPS tests, generated per run with the {@code openssl} CLI into {@code target/<name>} and never
 * committed: a CA (EC P-256, valid two days) and a server certificate it signed for {@code 127.0.0.1} and
 * {@code localhost}. The server's key is world-readable on purpose: front ends that read it after dropping root
 * (Caddy runs as {@code caddy} from the start) must open it, and it protects nothing. {@link #clientContext()} trusts
 * this CA and no other, so a test that connects proves the server presented this certificate.
 */
public final class TestCertificates {

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** A fresh CA and server certificate in {@code target/<name>}. */
    public static TestCertificates create(String name) throws IOException {
        Path dir = TestPaths.freshDir(name);
        Files.writeString(dir.resolve("server.ext"), "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
                + "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=xaccel test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign");
        openssl(dir, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost");
        openssl(dir, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", "server.pem", "-days", "2", "-extfile", "server.ext");
        Files.setPosixFilePermissions(dir.resolve("server.key"), PosixFilePermissions.fromString("rw-r--r--"));
        return new TestCertificates(dir);
    }

    private static void openssl(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Path log = dir.resolve("openssl.log");
        Optional<Integer> status = Processes.run(new ProcessBuilder(command).directory(dir.toFile()), log,
                Duration.ofSeconds(60));
        if (!status.equals(Optional.of(0))) {
            throw new IOException(command + " ended with " + status + " (Debian: apt-get install openssl): "
                    + Files.readString(log));
        }
    }

    /** The directory of the files (a server that reads them must reach it). */
    public Path dir() {
        return dir;
    }

    /** The CA's certificate (PEM). */
    public Path ca() {
        return dir.resolve("ca.pem");
    }

    /** The server certificate (PEM). */
    public Path cert() {
        return dir.resolve("server.pem");
    }

    /** The server certificate's private key (PEM). */
    public Path key() {
        return dir.resolve("server.key");
    }

    /** A client context that trusts this CA only. */
    public SSLContext clientContext() throws IOException, GeneralSecurityException {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(ca())) {
            trust.setCertificateEntry("xaccel-test-ca",
                    CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        return ssl;
    }
}
