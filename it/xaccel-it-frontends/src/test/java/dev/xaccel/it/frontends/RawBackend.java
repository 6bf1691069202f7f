package dev.xaccel.it.frontends;

import static dev.xaccel.testsupport.media.MediaFixture.encodePath;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.frontend.RunningFrontEnd;
import dev.xaccel.testsupport.frontend.ShippedFrontEnd;
import dev.xaccel.testsupport.servlet.RawAccelServlet;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A shipped front end in front of an application WITHOUT the filter: {@link RawAccelServlet} at {@code /raw} sends
 * whatever offload header and value a test names, so the tests can re-verify, on the installed server and with the
 * config as shipped, the behaviour the filter's encodings are built on (the facts ITs). The media tree is a
 * {@link MediaFixture} plus the extra names a test writes ({@link #write}).
 */
final class RawBackend implements AutoCloseable {

    final MediaFixture media;
    final Path root;
    final EmbeddedTomcat tomcat;
    final RunningFrontEnd frontEnd;
    private final Map<String, byte[]> extra = new LinkedHashMap<>();

    private RawBackend(MediaFixture media, EmbeddedTomcat tomcat, RunningFrontEnd frontEnd) throws IOException {
        this.media = media;
        this.root = media.media.toRealPath();
        this.tomcat = tomcat;
        this.frontEnd = frontEnd;
    }

    static RawBackend start(ShippedFrontEnd fe) throws Exception {
        String suite = "facts-" + fe.name();
        MediaFixture media = MediaFixture.create(suite);
        EmbeddedTomcat tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-" + suite))
                .webapp(SuiteApp.app(new BearerAuthFilter()).servlet("/raw", new RawAccelServlet())).start();
        try {
            return new RawBackend(media, tomcat, fe.start("facts", tomcat.port(), media.media, Map.of()));
        } catch (Exception | Error e) {
            tomcat.close();
            throw e;
        }
    }

    /** Writes a file below the root with content that names it; returns the content. */
    byte[] write(String name) throws IOException {
        byte[] content = ("extra file: " + name + "\n").repeat(50).getBytes(StandardCharsets.UTF_8);
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, content);
        extra.put(name, content);
        return content;
    }

    /** The content of a fixture or an extra file. */
    byte[] content(String name) {
        return extra.containsKey(name) ? extra.get(name) : media.content(name);
    }

    /** The UTF-8 bytes of {@code s}, one char each: what makes the container write exactly those bytes. */
    static String bytes(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
    }

    /** A query parameter that reaches the servlet as {@code value}: each char &lt; 256 becomes one header byte. */
    static String param(String value) {
        StringBuilder sb = new StringBuilder();
        for (char c : value.toCharArray()) {
            sb.append(encodePath(String.valueOf(c)).replace("/", "%2F"));
        }
        return sb.toString();
    }

    /** The application answers {@code status} with {@code header: value} (chars as bytes) and an empty body. */
    RawHttp.Response answer(int status, String header, String value) {
        return request(status, header, value).send(frontEnd.port());
    }

    /** {@link #answer} with 200. */
    RawHttp.Response answer(String header, String value) {
        return answer(200, header, value);
    }

    /** The request {@link #answer} sends, to add headers to. */
    RawHttp.Request request(int status, String header, String value) {
        return request(status, header, value, "");
    }

    /** {@link #request} with more of RawAccelServlet's query parameters ({@code &date=...}). */
    RawHttp.Request request(int status, String header, String value, String moreQuery) {
        return RawHttp.get("/raw?h=" + header + "&r=" + param(value) + (status == 200 ? "" : "&s=" + status)
                + "&ct=application%2Fx-facts" + moreQuery).header("Authorization", BearerAuthFilter.AUTHORIZATION);
    }

    @Override
    public void close() {
        try {
            frontEnd.close();
        } finally {
            tomcat.close();
        }
    }
}
