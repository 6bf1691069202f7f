package dev.xaccel.sample.auth;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Bearer tokens issued at login: random, in memory, expiring. */
public final class TokenStore {

    private record Grant(Users.User user, Instant expires) {
    }

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Grant> grants = new ConcurrentHashMap<>();
    private final Duration ttl;
    private final Clock clock;

    public TokenStore(Duration ttl) {
        this(ttl, Clock.systemUTC());
    }

    TokenStore(Duration ttl, Clock clock) {
        if (ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("token lifetime must be positive: " + ttl);
        }
        this.ttl = ttl;
        this.clock = clock;
    }

    public String issue(Users.User user) {
        Instant now = clock.instant();
        grants.values().removeIf(g -> g.expires().isBefore(now));
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        grants.put(token, new Grant(user, now.plus(ttl)));
        return token;
    }

    public Optional<Users.User> lookup(String token) {
        if (token == null) {
            return Optional.empty();
        }
        Grant g = grants.get(token);
        if (g == null) {
            return Optional.empty();
        }
        if (g.expires().isBefore(clock.instant())) {
            grants.remove(token);
            return Optional.empty();
        }
        return Optional.of(g.user());
    }

    public void revoke(String token) {
        if (token != null) {
            grants.remove(token);
        }
    }

    public Duration ttl() {
        return ttl;
    }
}
