package dev.xaccel.suite;

import static dev.xaccel.suite.DeliverySuite.assertNoAccelHeaders;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * offload=auto trusts the marker only from trustedProxies. The "untrusted" stack trusts
 * {@code 10.255.255.1} only, so requests from loopback (clients and the front end alike) are untrusted there;
 * the "trusted" stack (no front end, the filter configured for nginx) keeps the default (loopback) and is the
 * control showing the same request would be offloaded.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class SpoofedMarkerIT {

    private static final String MARKER = "X-Sendfile-Type";

    private DeliveryStack untrusted;
    private DeliveryStack trusted;
    private MediaFixture media;

    @BeforeAll
    void start() throws Exception {
        media = MediaFixture.create("spoof");
        untrusted = DeliveryStack.start("spoof-untrusted", media, Map.of("trustedProxies", "10.255.255.1"),
                SuiteEnvironment.frontEnd(), false);
        trusted = DeliveryStack.start("spoof-trusted", media, Map.of(), null, false);
    }

    @AfterAll
    void stop() {
        CloseAll.of(untrusted, trusted);
    }

    private static RawHttp.Response get(int port, String target, String... headers) {
        RawHttp.Request req = SuiteApp.authGet(target);
        for (int i = 0; i < headers.length; i += 2) {
            req.header(headers[i], headers[i + 1]);
        }
        return req.send(port);
    }

    private void assertServedDirectly(RawHttp.Response r, String name) {
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content(name), r.body(), "the body is the file");
        assertEquals(String.valueOf(media.content(name).length), r.header("Content-Length"));
        assertNoAccelHeaders(r);
    }

    @Test
    void spoofedMarkerFromAnUntrustedAddressIsServedDirectlyMapped() {
        assertServedDirectly(get(untrusted.containerPort(), "/library/big.bin", MARKER, "X-Accel-Redirect"),
                "big.bin");
    }

    @Test
    void spoofedMarkerFromAnUntrustedAddressIsServedDirectlyDeclared() {
        assertServedDirectly(get(untrusted.containerPort(), "/files/song.mp3", MARKER, "X-Accel-Redirect"),
                "song.mp3");
    }

    @Test
    void forwardedHeadersDoNotMakeAClientTrusted() {
        assertServedDirectly(get(untrusted.containerPort(), "/library/song.mp3", MARKER, "X-Accel-Redirect",
                "X-Forwarded-For", "10.255.255.1", "X-Real-IP", "10.255.255.1", "Forwarded", "for=10.255.255.1"),
                "song.mp3");
    }

    @Test
    void controlTheSameRequestFromATrustedAddressIsOffloaded() {
        RawHttp.Response r = get(trusted.containerPort(), "/library/big.bin", MARKER, "X-Accel-Redirect");
        assertEquals(200, r.status(), r.toString());
        assertEquals("/_xaccel/media/big.bin", r.header("X-Accel-Redirect"));
        assertEquals("0", r.header("Content-Length"));
        assertEquals(0, r.body().length);
        assertNull(r.header("Accept-Ranges"), "nginx sends its own");
        // the file's validators, those the filter decided the preconditions with (nginx drops them)
        assertTrue(r.header("ETag").matches("\"[0-9a-f]+-" + Long.toHexString(MediaFixture.BIG_SIZE) + "\""),
                r.toString());
        assertEquals(1, r.headers("Last-Modified").size(), r.toString());
        assertEquals("application/octet-stream", DeliverySuite.mediaType(r));
    }

    @Test
    void markerValueIsComparedCaseInsensitively() {
        RawHttp.Response r = get(trusted.containerPort(), "/library/song.mp3", MARKER, "x-accel-redirect");
        assertEquals("/_xaccel/media/song.mp3", r.header("X-Accel-Redirect"), r.toString());
    }

    @Test
    void withoutTheMarkerATrustedClientIsServedDirectly() {
        assertServedDirectly(get(trusted.containerPort(), "/library/song.mp3"), "song.mp3");
    }

    @Test
    void theHeaderTypeIsNeverTakenFromTheRequest() {
        RawHttp.Response sendfile = get(trusted.containerPort(), "/library/song.mp3", MARKER, "X-Sendfile");
        assertServedDirectly(sendfile, "song.mp3");
        RawHttp.Response lighttpd = get(trusted.containerPort(), "/library/song.mp3", MARKER, "X-LIGHTTPD-send-file");
        assertServedDirectly(lighttpd, "song.mp3");
    }

    @Test
    void aMappingSentByTheClientIsIgnored() {
        RawHttp.Response r = get(trusted.containerPort(), "/library/song.mp3", MARKER, "X-Accel-Redirect",
                "X-Accel-Mapping", media.media + "/=/_xaccel/evil/", "X-Accel-Location", "/");
        assertEquals("/_xaccel/media/song.mp3", r.header("X-Accel-Redirect"), r.toString());
    }

    @Test
    void throughTheFrontEndAnUntrustedBackendAddressFallsBackToDirectServing() {
        RawHttp.Response r = SuiteApp.authGet("/library/big.bin").header("X-Request-Id", "spoof-nginx-1")
                .send(untrusted.frontEndPort());
        assertEquals(200, r.status(), r.toString());
        assertEquals(MediaFixture.sha256(media.content("big.bin")), MediaFixture.sha256(r.body()));
        FrontEnd.Delivery d = untrusted.frontEnd().delivery("spoof-nginx-1");
        assertFalse(d.offloaded(), d.logLine());
        assertTrue(d.backendSentBody(), d.logLine());
    }
}
