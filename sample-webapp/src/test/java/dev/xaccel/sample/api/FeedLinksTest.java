package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.sample.SampleApp;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The covers' and the feeds' signed links share one secret (the filter's {@code signedLinkSecret}; the app makes
 * the second {@link SignedLinks} with it): only the prefix inside the signed uri keeps them apart, so a link of one
 * must never verify under the other's location. Checked against nginx's own formula,
 * {@code base64url(MD5("$secure_link_expires$uri SECRET"))}.
 */
class FeedLinksTest {

    static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static final Pattern LINK = Pattern.compile("(/[a-z]/library/)([^?]+)\\?md5=([A-Za-z0-9_-]{22})&expires=(\\d+)");
    static final String PATH = "Ada Lovelace/Notes on the Analytical Engine/01 Sketch #1.wav";

    /** What nginx's secure_link_md5 "$secure_link_expires$uri SECRET" computes for a request. */
    static String nginx(long expires, String decodedUri) throws Exception {
        byte[] md5 = MessageDigest.getInstance("MD5")
                .digest((expires + decodedUri + " " + SECRET).getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(md5);
    }

    @Test
    void theSameSecretAndPathGiveDifferentSignaturesUnderTheTwoPrefixes() throws Exception {
        SignedLinks covers = SignedLinks.create(SECRET, SampleApp.LINK_PREFIX, Duration.ofHours(1));
        SignedLinks feeds = SignedLinks.create(SECRET, SampleApp.FEED_LINK_PREFIX, Duration.ofDays(1));
        Instant expires = Instant.parse("2027-01-01T00:00:00Z");
        Matcher c = LINK.matcher(covers.sign(PATH, expires));
        Matcher f = LINK.matcher(feeds.sign(PATH, expires));
        assertTrue(c.matches() && f.matches());
        assertEquals("/s/library/", c.group(1));
        assertEquals("/f/library/", f.group(1));
        assertEquals(c.group(2), f.group(2), "the same encoded path");
        assertEquals(c.group(4), f.group(4), "the same expiry");
        assertNotEquals(c.group(3), f.group(3), "the prefix is inside the signature");

        long e = expires.getEpochSecond();
        assertEquals(nginx(e, "/s/library/" + PATH), c.group(3));
        assertEquals(nginx(e, "/f/library/" + PATH), f.group(3));
        // moved to the other location, neither verifies: nginx computes the signature of the uri it was sent
        assertNotEquals(nginx(e, "/f/library/" + PATH), c.group(3));
        assertNotEquals(nginx(e, "/s/library/" + PATH), f.group(3));
    }

    @Test
    void feedLinksLiveTheirOwnLifetime() {
        SignedLinks feeds = SignedLinks.create(SECRET, SampleApp.FEED_LINK_PREFIX,
                Duration.ofSeconds(Long.parseLong(SampleApp.DEFAULT_FEED_LINK_TTL)));
        long now = Instant.now().getEpochSecond();
        long expires = feeds.defaultExpiry().getEpochSecond();
        assertTrue(expires >= now + 86400 && expires <= now + 2 * 86400 + 1, expires + " vs " + now);
    }
}
