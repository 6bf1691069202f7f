package dev.xaccel.testsupport.apache;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;

/** Apache httpd 2.4 + mod_xsendfile with {@code docs/apache/xaccel.conf}: {@code xaccel.frontend=apache}. */
public final class ApacheFrontEnd extends ShippedFrontEnd {

    /** The delivery receipts' include (docs/filter.md, "Delivery receipts"), {@code ${RECEIPTS_PORT}}. */
    public static final String RECEIPTS_FILE = "docs/apache/xaccel-receipts.conf";
    /** The same include writing the lines to a file the filter reads, {@code ${RECEIPTS_FILE}}. */
    public static final String FILE_RECEIPTS_FILE = "docs/apache/xaccel-receipts-file.conf";

    private static final String COMMENTED_INCLUDE = "# Include xaccel-receipts.conf";

    public ApacheFrontEnd() {
        super("apache", "docs/apache/xaccel.conf", "docs/apache/xaccel-tls.conf", "X-Sendfile");
    }

    @Override
    protected ApacheServer.Builder builder(Path prefix) {
        return ApacheServer.builder(prefix);
    }

    /** mod_proxy keeps a pool per child process: sequential requests may use another child's connection. */
    @Override
    public boolean reusesUpstreamConnections() {
        return false;
    }

    /**
     * The shipped config with its delivery receipts switched on as its last comment says: the commented
     * {@code Include} uncommented, {@link #RECEIPTS_FILE} beside it, logging to {@code receiptsPort} (UDP on
     * 127.0.0.1), and {@code directives} (e.g. {@code EnableSendfile On}) appended.
     */
    public ApacheServer startWithReceipts(String suite, int backendPort, Path mediaRoot, int receiptsPort,
            String directives) throws IOException {
        return startWithReceipts(suite, backendPort, mediaRoot, RECEIPTS_FILE, "RECEIPTS_PORT",
                Integer.toString(receiptsPort), directives);
    }

    /**
     * {@link #startWithReceipts} through a file: the include rendered from {@link #FILE_RECEIPTS_FILE}, logging to
     * {@code receiptsFile} (the filter's {@code receipts} path).
     */
    public ApacheServer startWithFileReceipts(String suite, int backendPort, Path mediaRoot, Path receiptsFile)
            throws IOException {
        return startWithReceipts(suite, backendPort, mediaRoot, FILE_RECEIPTS_FILE, "RECEIPTS_FILE",
                receiptsFile.toAbsolutePath().toString(), "");
    }

    private ApacheServer startWithReceipts(String suite, int backendPort, Path mediaRoot, String include,
            String placeholder, String value, String directives) throws IOException {
        String text = Files.readString(template(), StandardCharsets.UTF_8);
        if (!text.contains(COMMENTED_INCLUDE)) {
            throw new IllegalStateException(file() + " no longer has its commented receipts Include");
        }
        Path dir = Files.createDirectories(TestPaths.target().resolve("apache-" + suite + "-receipts"));
        Path on = dir.resolve("xaccel.conf");
        // ServerRoot is the prefix; the include is rendered beside the config, in CONF_DIR
        Files.writeString(on, text.replace(COMMENTED_INCLUDE, "Include \"${CONF_DIR}/xaccel-receipts.conf\"")
                + "\n" + directives + "\n",
                StandardCharsets.UTF_8);
        Path real = mediaRoot.toRealPath();
        return builder(TestPaths.target().resolve(name() + "-" + suite)).template(on)
                .alongside("xaccel-receipts.conf", TestPaths.repositoryFile(include))
                .value("APP_PORT", Integer.toString(backendPort)).value("MEDIA_ROOT", real.toString())
                .value(placeholder, value).workersRead(real).start();
    }
}
