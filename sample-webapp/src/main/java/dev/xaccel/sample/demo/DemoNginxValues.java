package dev.xaccel.sample.demo;

import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values of {@code sample-webapp/nginx/xaccel-demo.conf.template}'s placeholders, decided here once for every
 * one who starts the sample behind nginx: {@code ./demo} (through {@link #main}), the sample's integration tests and
 * {@code benchmarks/run --reliability} (also through {@link #main}: it runs the sample's classes, not its code). A
 * placeholder added to the template is added here, and {@code DemoNginxValuesTest} fails until it is, so none of
 * them can miss it. {@code NGINX_PORT} is not among them: whoever starts nginx picks its port.
 *
 * @param tomcatPort   Tomcat's HTTP port on 127.0.0.1
 * @param library      the library root nginx serves from, absolute, without a trailing slash (for an S3 library: an
 *                     empty directory, nothing is served from disk)
 * @param linkSecret   the signed-link secret, the same as Tomcat's {@code XACCEL_LINK_SECRET}
 * @param remoteOrigin the S3 store's origin ({@code http://127.0.0.1:9000}), or null for a library on disk
 * @param receiptsPort the loopback UDP port of the filter's receipts (Tomcat's {@code XACCEL_RECEIPTS=127.0.0.1:PORT}),
 *                     or {@link #NO_RECEIPTS} when Tomcat reads none
 */
public record DemoNginxValues(int tomcatPort, Path library, String linkSecret, String remoteOrigin,
                              int receiptsPort) {

    /** The receipts port when Tomcat reads none (the discard port: nginx's datagrams go nowhere). */
    public static final int NO_RECEIPTS = 9;

    /** Without receipts read ({@link #NO_RECEIPTS}). */
    public DemoNginxValues(int tomcatPort, Path library, String linkSecret, String remoteOrigin) {
        this(tomcatPort, library, linkSecret, remoteOrigin, NO_RECEIPTS);
    }

    /** The origin nginx's remote location names when there is no store: an address it never asks. */
    public static final String NO_STORE = "http://127.0.0.1:9";
    /** The CA bundle of the remote location (Debian's; nginx loads it even when no store is https). */
    public static final String CA_CERTIFICATES = "/etc/ssl/certs/ca-certificates.crt";
    /** The environment variable {@link #main} takes the secret from (never a command-line argument). */
    public static final String SECRET_VARIABLE = "XACCEL_LINK_SECRET";

    /** Every placeholder of the template but {@code NGINX_PORT}, with its value. */
    public Map<String, String> placeholders() {
        String origin = remoteOrigin == null ? NO_STORE : remoteOrigin;
        URI uri = URI.create(origin);
        Map<String, String> values = new LinkedHashMap<>();
        values.put("TOMCAT_PORT", Integer.toString(tomcatPort));
        values.put("LIBRARY", library.toString());
        values.put("LINK_SECRET", linkSecret);
        values.put("REMOTE_ORIGIN", origin);
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        values.put("REMOTE_SERVER", uri.getHost() + ":" + port);
        values.put("CA_CERTIFICATES", CA_CERTIFICATES);
        values.put("RECEIPTS_PORT", Integer.toString(receiptsPort));
        return values;
    }

    /**
     * Prints {@code NAME=VALUE}, one placeholder a line, for a script to fill the template with:
     * {@code java -cp sample-webapp/target/classes dev.xaccel.sample.demo.DemoNginxValues --tomcat-port N --library
     * DIR [--remote-origin URL] [--receipts-port N]}, the secret in {@value #SECRET_VARIABLE}. Exit status 2 for a
     * usage error.
     */
    public static void main(String[] args) {
        Integer port = null;
        Path library = null;
        String origin = null;
        int receipts = NO_RECEIPTS;
        try {
            for (int i = 0; i < args.length; i += 2) {
                String value = i + 1 < args.length ? args[i + 1] : null;
                if (value == null) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                switch (args[i]) {
                    case "--tomcat-port" -> port = Integer.valueOf(value);
                    case "--library" -> library = Path.of(value);
                    case "--remote-origin" -> origin = value;
                    case "--receipts-port" -> receipts = Integer.parseInt(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            String secret = System.getenv(SECRET_VARIABLE);
            if (port == null || library == null || secret == null || secret.isEmpty()) {
                throw new IllegalArgumentException("--tomcat-port, --library and " + SECRET_VARIABLE + " are required");
            }
            print(new DemoNginxValues(port, library, secret, origin, receipts), System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("DemoNginxValues: " + e.getMessage());
            System.exit(2);
        }
    }

    static void print(DemoNginxValues values, PrintStream out) {
        values.placeholders().forEach((name, value) -> out.println(name + "=" + value));
        out.flush();
    }
}
