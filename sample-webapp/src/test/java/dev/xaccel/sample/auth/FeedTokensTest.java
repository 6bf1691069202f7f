package dev.xaccel.sample.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FeedTokensTest {

    static final Users.User DEMO = new Users.User("demo", false);
    static final Users.User OPS = new Users.User("ops", true);

    @Test
    void aTokenNamesItsUserUntilRevoked() {
        FeedTokens tokens = new FeedTokens();
        assertEquals(Optional.empty(), tokens.current(DEMO));
        String t = tokens.issue(DEMO);
        assertTrue(Pattern.matches("[A-Za-z0-9_-]{43}", t), t);
        assertEquals(Optional.of(DEMO), tokens.lookup(t));
        assertEquals(Optional.of(t), tokens.current(DEMO));
        assertTrue(tokens.revoke(DEMO));
        assertEquals(Optional.empty(), tokens.lookup(t), "revocation is immediate");
        assertEquals(Optional.empty(), tokens.current(DEMO));
        assertFalse(tokens.revoke(DEMO));
    }

    @Test
    void aNewTokenReplacesTheOldOne() {
        FeedTokens tokens = new FeedTokens();
        String first = tokens.issue(DEMO);
        String second = tokens.issue(DEMO);
        assertNotEquals(first, second);
        assertEquals(Optional.empty(), tokens.lookup(first));
        assertEquals(Optional.of(DEMO), tokens.lookup(second));
        assertEquals(Optional.of(second), tokens.current(DEMO));
    }

    @Test
    void usersAreIndependent() {
        FeedTokens tokens = new FeedTokens();
        String demo = tokens.issue(DEMO);
        String ops = tokens.issue(OPS);
        assertTrue(tokens.revoke(OPS));
        assertEquals(Optional.of(DEMO), tokens.lookup(demo));
        assertEquals(Optional.empty(), tokens.lookup(ops));
    }

    @Test
    void unknownAndMissingTokensNameNobody() {
        FeedTokens tokens = new FeedTokens();
        String t = tokens.issue(DEMO);
        assertEquals(Optional.empty(), tokens.lookup(null));
        assertEquals(Optional.empty(), tokens.lookup(""));
        assertEquals(Optional.empty(), tokens.lookup(t.substring(1)));
        assertFalse(tokens.toString().contains(t), "toString shows a token");
    }
}
