package dev.xaccel.filter.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.XAccelFilter;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code remoteOrigins} allow-list: parsed once, normalized, never widened. */
class RemoteOriginsTest {

    @Test
    void originsAreNormalizedAndMatchedExactly() {
        RemoteOrigins o = RemoteOrigins.parse("remoteOrigins",
                "HTTPS://Bucket.s3.eu-west-1.amazonaws.com:443/,  http://127.0.0.1:9000");
        assertEquals("https://bucket.s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000", o.toString());
        assertTrue(o.allows(URI.create("https://bucket.s3.eu-west-1.amazonaws.com/k?X-Amz-Signature=1")));
        assertTrue(o.allows(URI.create("http://127.0.0.1:9000/b/k")));
        assertFalse(o.allows(URI.create("http://127.0.0.1:9001/b/k")));
        assertFalse(o.allows(URI.create("https://127.0.0.1:9000/b/k")));
        assertFalse(o.allows(URI.create("https://bucket.s3.eu-west-1.amazonaws.com.evil.example/k")));
        assertFalse(o.allows(URI.create("https://evil.example/bucket.s3.eu-west-1.amazonaws.com/k")));
    }

    @Test
    void noneRefusesEverything() {
        assertTrue(RemoteOrigins.parse("remoteOrigins", " ").isEmpty());
        assertEquals("none", RemoteOrigins.NONE.toString());
        assertFalse(RemoteOrigins.NONE.allows(URI.create("http://127.0.0.1:9000/b/k")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1:9000", "ftp://h", "http://h/bucket", "http://h?x=1", "http://u@h",
        "http://h#f", "https://", "http://under_score.example"})
    void anythingButAnOriginFailsStartupNamingParamAndValue(String value) {
        ConfigException e = assertThrows(ConfigException.class,
                () -> InitParam.parse(Map.of("locations", Path.of("").toAbsolutePath() + " => /_x/",
                        "remoteOrigins", "http://ok.example, " + value), Placeholders.system()));
        assertTrue(e.getMessage().contains("[remoteOrigins]") && e.getMessage().contains(value), e.getMessage());
    }

    @Test
    void theBuilderAndTheStartupLineKnowIt() {
        XAccelConfig c = new XAccelConfig.Builder().location(Path.of("").toAbsolutePath(), "/_x/", null)
                .remoteOrigins(RemoteOrigins.parse("remoteOrigins", "http://127.0.0.1:9000")).build();
        assertTrue(InitParam.describe(c).contains("remoteOrigins=http://127.0.0.1:9000"), InitParam.describe(c));
        assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().remoteOrigins("http://h/path"));
    }
}
