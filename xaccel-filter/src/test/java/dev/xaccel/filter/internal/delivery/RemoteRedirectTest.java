package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;

import dev.xaccel.filter.XAccelRemote;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The redirect value of a remote object (what nginx decodes once) and the URL rules of {@link XAccelRemote}. */
class RemoteRedirectTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://127.0.0.1:9000/b/plain.bin?X-Amz-Signature=ab%2Bc"
                + " | /_xaccel/remote/http/127.0.0.1:9000/b/plain.bin?X-Amz-Signature=ab%2Bc",
        "http://127.0.0.1:9000/b/a%20b%2Bc%25d%3Fe%23f"
                + " | /_xaccel/remote/http/127.0.0.1:9000/b/a%2520b%252Bc%2525d%253Fe%2523f",
        "https://Bucket.S3.amazonaws.COM:443/%C3%BC/k?q=1"
                + " | /_xaccel/remote/https/bucket.s3.amazonaws.com/%25C3%25BC/k?q=1",
        "http://h/a+b;c=d,e@f:g | /_xaccel/remote/http/h/a%2Bb%3Bc%3Dd%2Ce%40f%3Ag",
        "http://h/a//b/./c | /_xaccel/remote/http/h/a//b/./c",
        "http://h | /_xaccel/remote/http/h/",
        "http://[::1]:9000/b/k | /_xaccel/remote/http/[::1]:9000/b/k",
    })
    void thePathIsEncodedOnceMoreAndTheQueryKept(String url, String redirect) {
        assertEquals(redirect, RemoteRedirect.of(XAccelRemote.of(URI.create(url)).url()).value());
    }

    @Test
    void nonAsciiIsPercentEncodedFirst() {
        assertEquals("/_xaccel/remote/http/h/b/%25C3%25BC.bin",
                RemoteRedirect.of(XAccelRemote.of(URI.create("http://h/b/ü.bin")).url()).value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://h/b/../k", "http://h/b/..", "http://h/../k"})
    void aDotDotSegmentCannotBeCarried(String url) {
        assertNull(RemoteRedirect.of(XAccelRemote.of(URI.create(url)).url()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://h/k", "/relative/k", "http://user:pw@h/k", "http://h/k#frag", "mailto:a@b",
        "http://under_score.example/k"})
    void onlyAbsoluteHttpUrlsWithAHostAreRemoteObjects(String url) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> XAccelRemote.of(URI.create(url)));
        assertTrue(e.getMessage().contains("XAccelRemote"), e.getMessage());
    }

    @Test
    void theQueryNeverShows() {
        XAccelRemote r = XAccelRemote.of(URI.create("http://h/b/k?X-Amz-Signature=secret")).downloadName("k");
        assertEquals("XAccelRemote[http://h/b/k?…, downloadName=k]", r.toString());
        assertThrows(IllegalArgumentException.class, () -> r.contentType("text/plain\n"));
    }

    @Test
    void theObjectsNameIsTheLastSegmentDecoded() {
        assertEquals("a b+c.mp3", RemoteDelivery.name(URI.create("http://h/b/a%20b+c.mp3?x=1")));
        assertEquals("download", RemoteDelivery.name(URI.create("http://h/b/")));
    }
}
