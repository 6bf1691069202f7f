package dev.xaccel.sample.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The users who may log in, from a string of entries {@code name:password[:admin]} separated by commas
 * (or whitespace). A password written as <code>{sha256}&lt;hex&gt;</code> is the SHA-256 hash of the UTF-8
 * password (e.g. from {@code printf %s 'secret' | sha256sum}).
 * Only hashes are kept in memory; comparisons are constant-time.
 */
public final class Users {

    /** A logged-in user. */
    public record User(String name, boolean admin) implements java.security.Principal {
        @Override
        public String getName() {
            return name;
        }
    }

    private record Entry(User user, byte[] hash) {
    }

    /** Prefix of a password given as a hex SHA-256 hash. */
    public static final String HASH_PREFIX = "{sha256}";

    private static final byte[] DUMMY = sha256("not a password");
    private final Map<String, Entry> byName;

    private Users(Map<String, Entry> byName) {
        this.byName = byName;
    }

    public static Users parse(String spec) {
        Map<String, Entry> users = new LinkedHashMap<>();
        for (String entry : spec.split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            String[] parts = entry.split(":", -1);
            if (parts.length < 2 || parts.length > 3 || parts[0].isEmpty() || parts[1].isEmpty()) {
                // never echo the entry: it holds a password
                throw new IllegalArgumentException(Messages.get("users.bad", users.size() + 1));
            }
            boolean admin = parts.length == 3 && parts[2].toLowerCase(Locale.ROOT).equals("admin");
            if (parts.length == 3 && !admin) {
                throw new IllegalArgumentException(Messages.get("users.badRole", parts[0]));
            }
            String pw = parts[1];
            byte[] hash;
            if (pw.startsWith(HASH_PREFIX)) {
                try {
                    hash = HexFormat.of().parseHex(pw.substring(HASH_PREFIX.length()));
                } catch (IllegalArgumentException e) {
                    hash = new byte[0];
                }
                if (hash.length != 32) {
                    throw new IllegalArgumentException(Messages.get("users.badHash", parts[0]));
                }
            } else {
                hash = sha256(pw);
            }
            users.put(parts[0], new Entry(new User(parts[0], admin), hash));
        }
        return new Users(Map.copyOf(users));
    }

    public boolean isEmpty() {
        return byName.isEmpty();
    }

    public Set<String> names() {
        return new java.util.TreeSet<>(byName.keySet());
    }

    /** The user if the password matches. Takes the same time for unknown names. */
    public Optional<User> authenticate(String name, String password) {
        if (name == null || password == null) {
            return Optional.empty();
        }
        Entry e = byName.get(name);
        byte[] given = sha256(password);
        boolean ok = MessageDigest.isEqual(given, e == null ? DUMMY : e.hash());
        return ok && e != null ? Optional.of(e.user()) : Optional.empty();
    }

    static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
