package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * nginx from the configurations the project ships in {@code docs/nginx/}, as the end-to-end suites run them: the
 * template verbatim (or as a test modified it), {@code ${TOMCAT_PORT}} the suite's Tomcat, {@code ${MEDIA_ROOT}}
 * its media root, the prefix {@code target/nginx-<suite>}.
 */
public final class DocsNginx {

    /** The documented snippet (README.md). */
    public static final String TEMPLATE = "docs/nginx/xaccel.conf.template";
    /** The TLS variant (docs/nginx/xaccel-tls.conf.template, {@code ${TLS_CERT}} and {@code ${TLS_KEY}}). */
    public static final String TLS_TEMPLATE = "docs/nginx/xaccel-tls.conf.template";
    /** The cached-decision variant (docs/nginx/xaccel-cached-auth.conf.template, {@code ${PUBLIC_PREFIX}}). */
    public static final String CACHED_TEMPLATE = "docs/nginx/xaccel-cached-auth.conf.template";

    /** The receipt lines' include (docs/filter.md, "Delivery receipts"), {@code ${RECEIPTS_PORT}}. */
    public static final String RECEIPTS_TEMPLATE = "docs/nginx/xaccel-receipts.conf.template";
    /** The same include writing the lines to a file, {@code ${RECEIPTS_FILE}}. */
    public static final String RECEIPTS_FILE_TEMPLATE = "docs/nginx/xaccel-receipts-file.conf.template";
    /** Signed links (nginx alone), docs/nginx/xaccel-signed-links.conf.template. */
    public static final String SIGNED_TEMPLATE = "docs/nginx/xaccel-signed-links.conf.template";
    /** The signed links' receipt line include, {@code ${RECEIPTS_PORT}}. */
    public static final String SIGNED_RECEIPTS_TEMPLATE = "docs/nginx/xaccel-signed-receipts.conf.template";
    /** The same include writing the lines to a file, {@code ${RECEIPTS_FILE}}. */
    public static final String SIGNED_RECEIPTS_FILE_TEMPLATE =
            "docs/nginx/xaccel-signed-receipts-file.conf.template";

    private DocsNginx() {
    }

    /** A file of the repository, e.g. {@link #TEMPLATE}. */
    public static Path path(String relative) {
        return TestPaths.repositoryFile(relative);
    }

    /** The text of {@code relative}, e.g. {@link #TEMPLATE}. */
    public static String text(String relative) throws IOException {
        return Files.readString(path(relative), StandardCharsets.UTF_8);
    }

    /** nginx from {@link #TEMPLATE} in front of {@code tomcatPort}, serving {@code mediaRoot}. */
    public static NginxServer start(String suite, int tomcatPort, Path mediaRoot) throws IOException {
        return start(suite, text(TEMPLATE), Map.of(), tomcatPort, mediaRoot);
    }

    /** nginx from another template (a docs/nginx variant, possibly modified) with {@code extra} values as well. */
    public static NginxServer start(String suite, String template, Map<String, String> extra, int tomcatPort,
            Path mediaRoot) throws IOException {
        return NginxServer.builder(TestPaths.target().resolve("nginx-" + suite))
                .template(template)
                .value("TOMCAT_PORT", Integer.toString(tomcatPort))
                .value("MEDIA_ROOT", mediaRoot.toAbsolutePath().toString())
                .values(extra)
                .workersRead(mediaRoot)
                .start();
    }

    /**
     * nginx from {@link #TEMPLATE} with its delivery receipts switched on as its comment says: the two commented
     * lines of the internal location uncommented, the include rendered from {@link #RECEIPTS_TEMPLATE} for
     * {@code receiptsPort} (UDP on 127.0.0.1).
     */
    public static NginxServer startWithReceipts(String suite, int tomcatPort, Path mediaRoot, int receiptsPort)
            throws IOException {
        return start(suite, receiptsOn(suite, TEMPLATE, RECEIPTS_TEMPLATE, PORT, Integer.toString(receiptsPort)),
                Map.of(), tomcatPort, mediaRoot);
    }

    /**
     * nginx from {@link #TEMPLATE} with its delivery receipts switched on through a file: the include rendered from
     * {@link #RECEIPTS_FILE_TEMPLATE} for {@code receiptsFile} (the filter's {@code receipts} path).
     */
    public static NginxServer startWithFileReceipts(String suite, int tomcatPort, Path mediaRoot, Path receiptsFile)
            throws IOException {
        return start(suite, receiptsOn(suite, TEMPLATE, RECEIPTS_FILE_TEMPLATE, FILE,
                receiptsFile.toAbsolutePath().toString()), Map.of(), tomcatPort, mediaRoot);
    }

    /**
     * nginx from {@link #SIGNED_TEMPLATE} with the receipts of its signed links switched on as its comment says
     * (the include rendered from {@link #SIGNED_RECEIPTS_TEMPLATE}); {@code extra} holds {@code LINK_SECRET}.
     */
    public static NginxServer startSignedWithReceipts(String suite, int tomcatPort, Path mediaRoot, int receiptsPort,
            Map<String, String> extra) throws IOException {
        return start(suite, receiptsOn(suite, SIGNED_TEMPLATE, SIGNED_RECEIPTS_TEMPLATE, PORT,
                Integer.toString(receiptsPort)), extra, tomcatPort, mediaRoot);
    }

    /**
     * {@link #startSignedWithReceipts} through a file: the include rendered from
     * {@link #SIGNED_RECEIPTS_FILE_TEMPLATE} for {@code receiptsFile}.
     */
    public static NginxServer startSignedWithFileReceipts(String suite, int tomcatPort, Path mediaRoot,
            Path receiptsFile, Map<String, String> extra) throws IOException {
        return start(suite, receiptsOn(suite, SIGNED_TEMPLATE, SIGNED_RECEIPTS_FILE_TEMPLATE, FILE,
                receiptsFile.toAbsolutePath().toString()), extra, tomcatPort, mediaRoot);
    }

    /**
     * The text of {@code template} (another shipped template with the same commented receipt lines, e.g.
     * docs/nginx/xaccel-remote.conf.template) with its receipts switched on: the include rendered from
     * {@link #RECEIPTS_TEMPLATE} for {@code receiptsPort} at {@link #receiptsInclude}.
     */
    public static String withReceipts(String suite, String template, int receiptsPort) throws IOException {
        return receiptsOn(suite, template, RECEIPTS_TEMPLATE, PORT, Integer.toString(receiptsPort));
    }

    private static final String PORT = "${RECEIPTS_PORT}";
    private static final String FILE = "${RECEIPTS_FILE}";

    /** Where {@link #withReceipts} renders the receipts include of {@code suite}. */
    public static Path receiptsInclude(String suite) {
        return TestPaths.target().resolve("nginx-" + suite + "-receipts").resolve("xaccel-receipts.conf");
    }

    /**
     * {@code template} with its commented receipt lines uncommented, the include rendered with {@code value} for
     * {@code placeholder} under the name the template includes (a file variant, {@code x-file.conf.template},
     * renders {@code x.conf} as its comment says).
     */
    private static String receiptsOn(String suite, String template, String includeTemplate, String placeholder,
            String value) throws IOException {
        Path dir = Files.createDirectories(TestPaths.target().resolve("nginx-" + suite + "-receipts"));
        String name = Path.of(includeTemplate).getFileName().toString().replace(".template", "")
                .replace("-file.conf", ".conf");
        Path include = dir.resolve(name);
        String text0 = text(includeTemplate);
        if (!text0.contains(placeholder)) {
            throw new IllegalStateException(includeTemplate + " has no " + placeholder);
        }
        String rendered = text0.replace(placeholder, value);
        Files.writeString(include, rendered, StandardCharsets.UTF_8);
        String text = text(template);
        String on = text
                .replace("# access_log        logs/access.log  xaccel;", "access_log        logs/access.log  xaccel;")
                .replace("# include           " + name + ";", "include           " + include + ";");
        if (on.equals(text) || on.contains("# include           ")) {
            throw new IllegalStateException(template + " no longer has its commented receipt lines");
        }
        return on;
    }
}
