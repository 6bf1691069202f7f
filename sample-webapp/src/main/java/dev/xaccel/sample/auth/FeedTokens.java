package dev.xaccel.sample.auth;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Per-user feed tokens: the credential in a podcast feed URL ({@code /feeds/<id>.xml?token=…}), for clients that
 * can neither log in with a form nor send a header. At most one per user, issued to a logged-in user, valid until
 * that user revokes or replaces it (no expiry: a subscription lives for months). Revocation is immediate: the next
 * {@link #lookup} fails. Random (256 bits, base64url), in memory: a restart revokes every token. A token is never
 * logged, and never shown in {@link #toString()}.
 */
public final class FeedTokens {

    private static final Logger LOG = Logger.getLogger(FeedTokens.class.getName());

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Users.User> users = new ConcurrentHashMap<>();
    private final Map<String, String> tokens = new ConcurrentHashMap<>();

    /** A new token for {@code user}; the previous one (if any) stops working at once. */
    public synchronized String issue(Users.User user) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        String previous = tokens.put(user.name(), token);
        if (previous != null) {
            users.remove(previous);
        }
        users.put(token, user);
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get(previous == null ? "feedToken.issued" : "feedToken.replaced", user.name()));
        }
        return token;
    }

    /** The user's current token, if one was issued and not revoked. */
    public Optional<String> current(Users.User user) {
        return Optional.ofNullable(tokens.get(user.name()));
    }

    /** The user a token belongs to; empty for an unknown, replaced or revoked token (or null). */
    public Optional<Users.User> lookup(String token) {
        return token == null ? Optional.empty() : Optional.ofNullable(users.get(token));
    }

    /** Revokes the user's token: feeds fetched with it fail from the next request on. True if there was one. */
    public synchronized boolean revoke(Users.User user) {
        String token = tokens.remove(user.name());
        if (token == null) {
            return false;
        }
        users.remove(token);
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine(Messages.get("feedToken.revoked", user.name()));
        }
        return true;
    }

    @Override
    public String toString() {
        return "FeedTokens[" + tokens.size() + " users]";
    }
}
