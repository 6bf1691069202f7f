package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Setup 16's nginx side (issue 32): setup 3's server with delivery receipts switched on the way the shipped
 * configuration says, through nginx's buffered log file (the transport docs/filter.md recommends for nginx).
 * {@value #TEMPLATE} is rendered for the run's receipt log as its comment does it
 * ({@code envsubst '${RECEIPTS_FILE}'}: that placeholder only) into {@value #INCLUDE_NAME} beside nginx's prefix
 * (the shared NginxServer makes the prefix itself afresh), and included by the internal location of
 * xaccel.conf.template in place of its commented include line; the {@code xaccel_receipt} log format and the
 * {@code proxy_hide_header} of the identifier are the template's lines, verbatim. The template's other commented
 * line (an access log to a file) stays commented: logging is off for every setup, so setup 16 differs from setup 3
 * by the receipt lines alone.
 */
final class ReceiptSetup {

    /** The shipped include. */
    static final String TEMPLATE = "xaccel-receipts-file.conf.template";
    /** What the include is rendered into, beside nginx's prefix. */
    static final String INCLUDE_NAME = "xaccel-receipts.conf";
    /** The BenchServer context with receipts on. */
    static final String CONTEXT = "/receipts";
    /** The log format of the receipt lines, in the template's {@code http {}}. */
    static final Pattern LOG_FORMAT = Pattern.compile("^\\s*log_format\\s+xaccel_receipt\\s");
    /** The line of the template's {@code location /} that keeps the identifier from the client. */
    static final Pattern HIDE_HEADER = Pattern.compile("^\\s*proxy_hide_header\\s+X-Xaccel-Receipt\\s*;");
    private static final Pattern COMMENTED_INCLUDE = Pattern.compile("#\\s*(include\\s+)" + Pattern.quote(
            INCLUDE_NAME) + ";");
    private static final String FILE = "${RECEIPTS_FILE}";

    private ReceiptSetup() {
    }

    /** The rendered include of the run whose nginx prefix is {@code nginxPrefix}. */
    static Path include(Path nginxPrefix) {
        return nginxPrefix.toAbsolutePath().getParent().resolve(INCLUDE_NAME);
    }

    /** Renders {@value #TEMPLATE} of {@code templates} for {@code receiptsFile} into {@link #include}. */
    static void writeInclude(Path templates, Path nginxPrefix, Path receiptsFile) {
        try {
            String t = Files.readString(templates.resolve(TEMPLATE), StandardCharsets.UTF_8);
            if (!t.contains(FILE)) {
                throw new IllegalStateException(TEMPLATE + " has no " + FILE + " (template changed?)");
            }
            Path out = include(nginxPrefix);
            Files.createDirectories(out.getParent());
            Files.writeString(out, t.replace(FILE, receiptsFile.toAbsolutePath().toString()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot render " + TEMPLATE, e);
        }
    }

    /** The template's internal location with its commented include line switched on, naming {@code include}. */
    static String internalLocation(String internal, Path include) {
        Matcher m = COMMENTED_INCLUDE.matcher(internal);
        if (!m.find()) {
            throw new IllegalStateException("the internal location of " + BenchNginxConf.XACCEL_TEMPLATE
                    + " has no commented 'include " + INCLUDE_NAME + ";' (template changed?)");
        }
        return internal.substring(0, m.start()) + m.group(1) + include + ";" + internal.substring(m.end());
    }

    /**
     * The server of setup 16: setup 3's proxy lines towards {@value #CONTEXT}, the marker, the template's
     * {@code proxy_hide_header} line, and the internal location with the include.
     */
    static String nginxServer(String proxyLines, String hideHeader, String internalLocation) {
        return """

                    # (16) xaccel with delivery receipts: (3) towards context %s (receipts=<the run's log file>),
                    #      the identifier hidden as in docs/nginx/%s, its internal location with the include of
                    #      docs/nginx/%s (rendered for the run's receipt log) switched on
                    server {
                        listen 127.0.0.1:${RECEIPTS_SERVER_PORT};
                        location / {
                %s            proxy_set_header X-Sendfile-Type X-Accel-Redirect;
                %s
                        }
                %s
                    }
                """.formatted(CONTEXT, BenchNginxConf.XACCEL_TEMPLATE, TEMPLATE, proxyLines, hideHeader,
                internalLocation);
    }
}
