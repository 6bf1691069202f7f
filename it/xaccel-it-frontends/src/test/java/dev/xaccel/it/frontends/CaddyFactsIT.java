package dev.xaccel.it.frontends;

import static dev.xaccel.testsupport.media.MediaFixture.encodePath;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.caddy.CaddyFrontEnd;
import dev.xaccel.testsupport.servlet.SuiteApp;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Re-verifies, on the installed Caddy 2.6 and with docs/caddy/Caddyfile as shipped ({@code uri replace} of the
 * header value, {@code handle_path} per root, {@code file_server}), that the filter's X-Accel-Redirect encoding
 * (the one nginx gets) names every file exactly (docs/front-ends.md). The backend sends the header by itself.
 */
class CaddyFactsIT {

    static final String H = "X-Accel-Redirect";
    static final String INTERNAL = SuiteApp.INTERNAL_PREFIX;
    static RawBackend b;

    @BeforeAll
    static void start() throws Exception {
        b = RawBackend.start(new CaddyFrontEnd());
        b.write("a%20b.bin");
        b.write("trail.bin ");
        b.write("tab\tx.bin");
        b.write("..foo.bin");
        b.write("back\\slash.bin");
        b.write("br{env.HOME}.bin");
    }

    @AfterAll
    static void stop() {
        if (b != null) {
            b.close();
        }
    }

    RawHttp.Response send(String name) {
        return b.answer(H, INTERNAL + encodePath(name));
    }

    @Test
    void thePercentEncodedPathNamesEveryFile() {
        for (String name : MediaFixture.AWKWARD_NAMES) {
            RawHttp.Response r = send(name);
            assertEquals(200, r.status(), name + " -> " + r);
            assertArrayEquals(b.content(name), r.body(), name);
        }
        for (String name : List.of("a%20b.bin", "trail.bin ", "tab\tx.bin", "..foo.bin", "back\\slash.bin",
                "br{env.HOME}.bin")) {
            assertArrayEquals(b.content(name), send(name).body(), name);
        }
    }

    @Test
    void theValueIsDecodedExactlyOnce() {
        assertArrayEquals(b.content("a b.bin"), b.answer(H, INTERNAL + "a%20b.bin").body());
        assertArrayEquals(b.content("a%20b.bin"), b.answer(H, INTERNAL + "a%2520b.bin").body());
        assertArrayEquals(b.content("what?.bin"), b.answer(H, INTERNAL + "what?.bin").body(),
                "uri replace splits no query off (rewrite would)");
    }

    @Test
    void onlyTheInternalPrefixOfTheRootIsServedLexicallyConfined() {
        for (String value : List.of("/small.txt", "/_xaccel/other/small.txt", INTERNAL + "../canary.txt",
                INTERNAL + "..%2Fcanary.txt", INTERNAL + "%2e%2e/outside/canary.txt",
                INTERNAL + "../../outside/canary.txt", INTERNAL + "emptydir", INTERNAL)) {
            RawHttp.Response r = b.answer(H, value);
            assertEquals(404, r.status(), value + " -> " + r);
            assertFalse(b.media.leaksCanary(r.raw()), value);
        }
    }

    /** Why the filter names real paths and roots must have no untrusted writers: links are followed. */
    @Test
    void symbolicLinksAreFollowedAlsoOutOfTheRoot() {
        assertTrue(b.media.leaksCanary(send("link-out").body()), "file_server follows a link out of the root");
    }

    @Test
    void theApplicationsHeadersReachTheClientTheOffloadHeaderDoesNot() {
        RawHttp.Response r = send("small.txt");
        assertEquals("application/x-facts", r.header("Content-Type"));
        assertNull(r.header(H));
        assertEquals(List.of("bytes"), r.headers("Accept-Ranges"));
    }

    @Test
    void aClientCannotReachTheFileServer() {
        for (String target : List.of(INTERNAL + "small.txt", "/__xaccel__", "/small.txt")) {
            RawHttp.Response r = RawHttp.get(target).header("Authorization", BearerAuthFilter.AUTHORIZATION)
                    .header(H, INTERNAL + "small.txt").send(b.frontEnd.port());
            assertEquals(404, r.status(), target + " -> " + r);
        }
    }
}
