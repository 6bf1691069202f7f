package dev.xaccel.testsupport.frontend;

import dev.xaccel.testsupport.TestCertificates;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.SuiteApp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A front end other than nginx with the configuration the project ships for it, exactly as shipped: started from
 * its file under {@code docs/} (found from the working directory upwards), only its ports and paths filled in
 * ({@code ${APP_PORT}}, {@code ${MEDIA_ROOT}}, the server's own {@code ${FRONT_PORT}} and {@code ${PREFIX}}). The
 * filter behind it offloads the media root with the front end's header; its {@code locations} entry names the
 * internal prefix {@link SuiteApp#INTERNAL_PREFIX} (Caddy's route, unused by X-Sendfile but required by the
 * filter). A subclass says which server runs the file and what it does differently from nginx (measured,
 * docs/front-ends.md).
 * <p>
 * Each also ships a TLS variant ({@link #tlsFile()}) that includes the plain config, which is then rendered beside
 * it with the same values: {@link #startTls} runs it with a {@link TestCertificates} PKI ({@code ${TLS_CERT}},
 * {@code ${TLS_KEY}}); the HTTPS port is the server's first.
 */
public abstract class ShippedFrontEnd implements FrontEnd.Factory {

    private final String name;
    private final String file;
    private final String tlsFile;
    private final String offloadHeader;

    /**
     * @param name          what {@value FrontEnd#PROPERTY} selects: {@code apache}, {@code lighttpd}, {@code caddy}
     * @param file          the shipped config, relative to the repository
     * @param tlsFile       its shipped TLS variant, in the same directory
     * @param offloadHeader the filter's {@code headerType} for it
     */
    protected ShippedFrontEnd(String name, String file, String tlsFile, String offloadHeader) {
        this.name = name;
        this.file = file;
        this.tlsFile = tlsFile;
        this.offloadHeader = offloadHeader;
    }

    @Override
    public String name() {
        return name;
    }

    /** The shipped config, relative to the repository: {@code docs/apache/xaccel.conf}, ... */
    public String file() {
        return file;
    }

    /** The shipped config in this checkout. */
    public Path template() {
        return TestPaths.repositoryFile(file);
    }

    /** The shipped TLS variant, relative to the repository: {@code docs/apache/xaccel-tls.conf}, ... */
    public String tlsFile() {
        return tlsFile;
    }

    /** A builder of the server that runs the shipped files, in {@code prefix}. */
    protected abstract FrontEndServer.Builder<?, ?> builder(Path prefix);

    /** The listen port placeholders of the TLS variant, the HTTPS one first. */
    protected List<String> tlsPorts() {
        return List.of("FRONT_PORT");
    }

    /** The front end in {@code target/<name>-<suite>}. */
    @Override
    public FrontEnd start(String suite, int backendPort, Path mediaRoot) throws IOException {
        return start(suite, backendPort, mediaRoot, Map.of());
    }

    /** {@link #start(String, int, Path)} with values of further placeholders. */
    public RunningFrontEnd start(String suite, int backendPort, Path mediaRoot, Map<String, String> extra)
            throws IOException {
        Path real = mediaRoot.toRealPath();
        Map<String, String> v = new LinkedHashMap<>();
        v.put("APP_PORT", Integer.toString(backendPort));
        v.put("MEDIA_ROOT", real.toString());
        v.putAll(extra);
        return new RunningFrontEnd(builder(TestPaths.target().resolve(name + "-" + suite)).template(template())
                .values(v).workersRead(real).start());
    }

    /**
     * The TLS variant in {@code target/<name>-<suite>}, presenting {@code pki}'s server certificate; its
     * {@link FrontEnd#port()} is the HTTPS port.
     */
    public RunningFrontEnd startTls(String suite, int backendPort, Path mediaRoot, TestCertificates pki)
            throws IOException {
        return startTls(suite, backendPort, mediaRoot, pki, template());
    }

    /** {@link #startTls(String, int, Path, TestCertificates)} including {@code plain} instead of the shipped config. */
    public RunningFrontEnd startTls(String suite, int backendPort, Path mediaRoot, TestCertificates pki, Path plain)
            throws IOException {
        Path real = mediaRoot.toRealPath();
        Path tls = TestPaths.repositoryFile(tlsFile);
        // both under their shipped names in conf/: the variant includes the other by that name
        return new RunningFrontEnd(builder(TestPaths.target().resolve(name + "-" + suite))
                .confName("conf/" + tls.getFileName()).template(tls)
                .alongside(template().getFileName().toString(), plain)
                .ports(tlsPorts().toArray(String[]::new))
                .value("APP_PORT", Integer.toString(backendPort)).value("MEDIA_ROOT", real.toString())
                .value("TLS_CERT", pki.cert().toString()).value("TLS_KEY", pki.key().toString())
                .workersRead(real).workersRead(pki.dir()).start());
    }

    /** {@code locations = <mediaRoot>/ => /_xaccel/media/} and {@code headerType}. */
    @Override
    public Map<String, String> filterParams(Path mediaRoot) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("locations", mediaRoot + "/ => " + SuiteApp.INTERNAL_PREFIX);
        p.put("headerType", offloadHeader);
        return p;
    }

    @Override
    public String offloadHeader() {
        return offloadHeader;
    }

    /** None: a client asking for the internal prefix reaches the application (its 404). */
    @Override
    public Optional<String> internalPrefix() {
        return Optional.empty();
    }

    /** X-Accel-Redirect: every name; X-Sendfile: what its raw value carries to Apache and lighttpd alike. */
    @Override
    public boolean carries(String relativePath) {
        if (!offloadHeader.equals("X-Sendfile")) {
            return true;
        }
        return !relativePath.matches("(?s).*%[0-9A-Fa-f]{2}.*") && !relativePath.endsWith(" ")
                && relativePath.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    /** None of Apache httpd + mod_xsendfile, lighttpd ({@code follow-symlink disable} is racy) and Caddy does. */
    @Override
    public boolean confinesAtOpenTime() {
        return false;
    }

    @Override
    public String toString() {
        return name;
    }
}
