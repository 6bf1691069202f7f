package dev.xaccel.testsupport.frontend;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.SuiteApp;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
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
 */
public abstract class ShippedFrontEnd implements FrontEnd.Factory {

    private final String name;
    private final String file;
    private final String offloadHeader;

    /**
     * @param name          what {@value FrontEnd#PROPERTY} selects: {@code apache}, {@code lighttpd}, {@code caddy}
     * @param file          the shipped config, relative to the repository
     * @param offloadHeader the filter's {@code headerType} for it
     */
    protected ShippedFrontEnd(String name, String file, String offloadHeader) {
        this.name = name;
        this.file = file;
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

    /**
     * Starts the server that runs {@code template} with {@code values} in {@code prefix}, reading {@code mediaRoot}.
     */
    protected abstract FrontEndServer server(Path prefix, Path template, Map<String, String> values, Path mediaRoot)
            throws IOException;

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
        return new RunningFrontEnd(server(TestPaths.target().resolve(name + "-" + suite), template(), v, real));
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
