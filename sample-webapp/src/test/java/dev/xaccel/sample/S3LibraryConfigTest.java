package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code XACCEL_LIBRARY=s3://bucket/prefix} and the XACCEL_S3_* variables, with their defaults. */
class S3LibraryConfigTest {

    static S3Library.Config config(String location, Map<String, String> env) {
        return S3Library.Config.fromEnvironment(location, env::get);
    }

    @Test
    void defaultsAreAwsWithTheSdksCredentialsAndTenSeconds() {
        S3Library.Config c = config("s3://media", Map.of());
        assertEquals("media", c.bucket());
        assertEquals("", c.prefix());
        assertNull(c.endpoint());
        assertEquals("us-east-1", c.region());
        assertNull(c.accessKey());
        assertFalse(c.pathStyle(), "AWS: virtual-hosted");
        assertEquals(10, c.presignTtl().toSeconds());
    }

    @Test
    void anEndpointMeansPathStyleAndThePrefixEndsWithASlash() {
        S3Library.Config c = config("s3://demo-library/audio/books", Map.of("XACCEL_S3_ENDPOINT", "http://127.0.0.1:9000",
                "XACCEL_S3_REGION", "eu-west-1", "XACCEL_S3_ACCESS_KEY", "k", "XACCEL_S3_SECRET_KEY", "sekr1t-value",
                "XACCEL_S3_PRESIGN_SECONDS", "5"));
        assertEquals("audio/books/", c.prefix());
        assertEquals(URI.create("http://127.0.0.1:9000"), c.endpoint());
        assertTrue(c.pathStyle());
        assertEquals("eu-west-1", c.region());
        assertEquals(5, c.presignTtl().toSeconds());
        assertFalse(c.toString().contains("sekr1t-value"), "no secret in the log line: " + c);
        assertFalse(config("s3://demo-library",
                Map.of("XACCEL_S3_ENDPOINT", "http://h", "XACCEL_S3_PATH_STYLE", "false")).pathStyle());
    }

    @Test
    void mistakesAreNamed() {
        assertThrows(IllegalArgumentException.class, () -> config("s3://UPPER", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> config("s3://media", Map.of("XACCEL_S3_ACCESS_KEY", "k")));
        assertThrows(IllegalArgumentException.class,
                () -> config("s3://media", Map.of("XACCEL_S3_PRESIGN_SECONDS", "0")));
        assertThrows(IllegalArgumentException.class,
                () -> config("s3://media", Map.of("XACCEL_S3_PRESIGN_SECONDS", "x")));
    }
}
