package dev.xaccel.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The /library/ cover location of the demo's nginx config serves {@code alias LIBRARY/$xaccel_cover} after
 * Tomcat allowed {@code $request_uri}: the two must name the same file.
 */
class DemoNginxConfTest {

    static Pattern coverLocation() throws Exception {
        String conf = Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("location ~\\* \"(\\^/library/[^\"]+)\" \\{").matcher(conf);
        assertTrue(m.find(), "no regex location for /library/");
        assertTrue(conf.contains("alias         ${LIBRARY}/$xaccel_cover;"));
        // ~* is case-insensitive; Java's group names admit no '_'
        return Pattern.compile(m.group(1).replace("(?<xaccel_cover>", "(?<cover>"), Pattern.CASE_INSENSITIVE);
    }

    @Test
    void coversMatchWithTheirDecodedPath() throws Exception {
        Matcher m = coverLocation().matcher("/library/Ada Lovelace/Notes #1 50% ü/cover.PNG");
        assertTrue(m.matches());
        assertEquals("Ada Lovelace/Notes #1 50% ü/cover.PNG", m.group("cover"));
    }

    /** Tomcat drops ";x" from the path it authorizes; nginx's $uri (also for %3B) keeps it. */
    @ParameterizedTest
    @ValueSource(strings = {"/library/A;x/T/cover.png", "/library/A/T;x/cover.png", "/library/A/T/cover.png;x.png",
            "/library/A/T/c;x.png", "/library/;/T/cover.png"})
    void noSegmentWithAPathParameter(String uri) throws Exception {
        assertFalse(coverLocation().matcher(uri).matches(), uri);
    }
}
