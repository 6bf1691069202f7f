package dev.xaccel.filter;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.PathRules;
import dev.xaccel.filter.internal.util.PercentEncoding;

/**
 * Issues expiring links that nginx's {@code secure_link} module verifies on its own, without asking the
 * application: for the smallest, most numerous files (covers, thumbnails). Immutable and thread-safe.
 *
 * <pre>
 * location ^~ /s/media/ {
 *     secure_link      $arg_md5,$arg_expires;
 *     secure_link_md5  "$secure_link_expires$uri SECRET";
 *     if ($secure_link = "")  { return 403; }
 *     if ($secure_link = "0") { return 410; }
 *     alias /srv/media/;
 * }
 * </pre>
 *
 * {@code sign("alice/cover 1.jpg", expires)} returns
 * {@code /s/media/alice/cover%201.jpg?md5=SIG&expires=EPOCH} where {@code SIG} is the base64url encoding
 * without padding of MD5 over the UTF-8 bytes of {@code EPOCH + "/s/media/alice/cover 1.jpg" + " " + SECRET}:
 * exactly what nginx computes from {@code $secure_link_expires$uri SECRET}, {@code $uri} being the decoded,
 * normalized path. The path in the link is percent-encoded like an {@code X-Accel-Redirect} value (UTF-8,
 * every byte outside {@code A-Za-z0-9-._~/} encoded), so nginx decodes it back to exactly the signed bytes.
 * <p>
 * A link opens its file for <b>anyone who holds it</b> until it expires; revocation before that means rotating
 * the secret (which invalidates every link). MD5 is acceptable here only because the secret is long and
 * random: at least {@value #MIN_SECRET_LENGTH} characters from {@code A-Za-z0-9+/=._~-}
 * ({@code openssl rand -base64 48}). The secret never appears in {@link #toString()}.
 * <p>
 * Obtain the instance configured by the filter ({@code signedLinkSecret}, {@code signedLinkPrefix},
 * {@code signedLinkTtl}) with {@link XAccel#signedLinks(jakarta.servlet.ServletContext)}, or build one with
 * {@link #create(String, String, Duration)}.
 */
public final class SignedLinks {

    /** Name of the ServletContext attribute under which {@link XAccelFilter} publishes its instance. */
    public static final String CONTEXT_ATTRIBUTE = SignedLinks.class.getName();
    /** Shortest accepted secret. */
    public static final int MIN_SECRET_LENGTH = 32;

    /** Between the uri and the bound value in the signed input; refused in both (see {@link #signature}). */
    private static final char SEPARATOR = '|';
    private static final Pattern SECRET = Pattern.compile("[A-Za-z0-9+/=._~-]+");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,19}");

    private final String secret;
    private final String prefix;
    private final Duration ttl;
    private final Clock clock;

    private SignedLinks(String secret, String prefix, Duration ttl, Clock clock) {
        this.secret = secret;
        this.prefix = prefix;
        this.ttl = ttl;
        this.clock = clock;
    }

    /**
     * A signer for one public prefix.
     *
     * @param secret       the secret shared with nginx's {@code secure_link_md5} (at least
     *                     {@value #MIN_SECRET_LENGTH} characters of {@code A-Za-z0-9+/=._~-})
     * @param publicPrefix the public location of the signed files, e.g. {@code /s/media/} (starts and ends with
     *                     {@code /}, only {@code A-Za-z0-9-._~/})
     * @param defaultTtl   minimum lifetime of links from {@link #sign(String)}, at least one second
     * @return the signer
     * @throws IllegalArgumentException naming the problem (never the secret)
     */
    public static SignedLinks create(String secret, String publicPrefix, Duration defaultTtl) {
        return create(secret, publicPrefix, defaultTtl, Clock.systemUTC());
    }

    static SignedLinks create(String secret, String publicPrefix, Duration defaultTtl, Clock clock) {
        secretProblem(secret).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        if (!PathRules.isUriPrefix(publicPrefix)) {
            throw new IllegalArgumentException(Messages.get("signed.prefix", publicPrefix));
        }
        if (defaultTtl == null || defaultTtl.getSeconds() < 1) {
            throw new IllegalArgumentException(Messages.get("signed.ttl", defaultTtl));
        }
        return new SignedLinks(secret, publicPrefix, Duration.ofSeconds(defaultTtl.getSeconds()),
                Objects.requireNonNull(clock));
    }

    /**
     * Why {@link #create} would refuse {@code secret}; the message never contains the secret.
     *
     * @param secret the shared secret to check
     * @return the reason, or empty when the secret is acceptable
     */
    public static Optional<String> secretProblem(String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH) {
            return Optional.of(Messages.get("signed.secret.short", MIN_SECRET_LENGTH,
                    secret == null ? 0 : secret.length()));
        }
        if (!SECRET.matcher(secret).matches()) {
            return Optional.of(Messages.get("signed.secret.chars"));
        }
        return Optional.empty();
    }

    /**
     * The public prefix.
     *
     * @return e.g. {@code /s/media/}
     */
    public String prefix() {
        return prefix;
    }

    /**
     * The default lifetime.
     *
     * @return whole seconds, at least one
     */
    public Duration ttl() {
        return ttl;
    }

    /**
     * The expiry used by {@link #sign(String)}: now + ttl, rounded up to a multiple of ttl (so between ttl
     * and 2 × ttl from now). Links issued within the same window are identical, which lets browsers cache them.
     *
     * @return the expiry of links signed now
     */
    public Instant defaultExpiry() {
        long t = ttl.getSeconds();
        long due = clock.instant().getEpochSecond() + t;
        long rounded = Math.floorDiv(due + t - 1, t) * t;
        return Instant.ofEpochSecond(rounded);
    }

    /**
     * {@code sign(relativePath, defaultExpiry())}.
     *
     * @param relativePath the file's path below the location's root, not percent-encoded
     * @return the link
     */
    public String sign(String relativePath) {
        return sign(relativePath, defaultExpiry());
    }

    /**
     * A link to one file, valid until {@code expires}.
     *
     * @param relativePath the file's path below the location's root, '/'-separated, not percent-encoded
     *                     (e.g. {@code alice/Cover Art #1.jpg}); no leading '/', no empty, {@code .} or
     *                     {@code ..} segments, no control characters, no {@code |}
     * @param expires      when the link stops working (nginx answers 410 afterwards)
     * @return {@code prefix + encoded path + "?md5=" + signature + "&expires=" + epochSeconds}
     * @throws IllegalArgumentException for a path nginx would not see unchanged, or an expiry before 1970
     */
    public String sign(String relativePath, Instant expires) {
        return link(relativePath, expires, "");
    }

    /**
     * Like {@link #sign(String, Instant)}, but the link also requires the browser to send {@code boundValue}
     * in a cookie: nginx must then use {@code secure_link_md5 "$secure_link_expires$uri|$cookie_NAME SECRET"}
     * (e.g. {@code $cookie_JSESSIONID} with {@code boundValue = session.getId()}). A leaked link is then
     * useless without that cookie; it also stops working when the session changes.
     *
     * @param relativePath as for {@link #sign(String, Instant)}
     * @param expires      when the link stops working
     * @param boundValue   the cookie value, not empty, without {@code |}
     * @return the link
     */
    public String signBound(String relativePath, Instant expires, String boundValue) {
        if (boundValue == null || boundValue.isEmpty() || boundValue.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException(Messages.get("signed.bound"));
        }
        return link(relativePath, expires, boundValue);
    }

    private String link(String relativePath, Instant expires, String bound) {
        checkRelative(relativePath);
        long epoch = Objects.requireNonNull(expires, "expires").getEpochSecond();
        if (epoch < 0) {
            throw new IllegalArgumentException(Messages.get("signed.expires", expires));
        }
        String uri = prefix + relativePath;
        String encoded = PercentEncoding.path(uri);
        return encoded + "?md5=" + signature(epoch, uri, bound, secret) + "&expires=" + epoch;
    }

    /**
     * Whether nginx's {@code secure_link_md5 "$secure_link_expires$uri SECRET"} accepted a link signed with this
     * secret (any prefix; not a bound link): the delivery receipt of a signed link (docs/filter.md) counts only
     * when this holds. Constant time in the signature.
     *
     * @param uri       the decoded path as nginx's {@code $uri} holds it, e.g. {@code /s/media/alice/cover 1.jpg}
     * @param expires   the expiry exactly as the link carries it ({@code $arg_expires}, digits)
     * @param signature the link's {@code md5} argument (22 characters of base64url)
     * @return true when this secret signed exactly that path and expiry
     */
    public boolean verifies(String uri, String expires, String signature) {
        if (uri == null || expires == null || signature == null || !DIGITS.matcher(expires).matches()) {
            return false;
        }
        String expected = digest(expires + uri + " " + secret);
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * base64url without padding of MD5(UTF-8 of {@code expires + uri + " " + secret}), or with a non-empty
     * {@code bound} of {@code expires + uri + "|" + bound + " " + secret}: the values nginx's
     * {@code secure_link_md5 "$secure_link_expires$uri secret"} and
     * {@code "$secure_link_expires$uri|$cookie_X secret"} yield.
     * <p>
     * The client chooses both {@code $uri} and the cookie, so the input must split into them in one way only:
     * without the separator, a link for {@code a.pdf.jpg} bound to {@code S} also verified for {@code a.pdf}
     * with the cookie {@code .jpgS}. The expiry is digits (nginx rejects anything else) and every uri starts
     * with '/'; the secret has neither '|' nor ' ' and is the fixed end. Signed uris and bound values never
     * contain '|' (refused here), so a signed input holds exactly one '|'. A request whose decoded
     * {@code $uri} contains '|' (sent as {@code %7C}), or whose cookie does, yields an input with two or more,
     * hence matches no signed input; otherwise its only '|' is the separator, which fixes {@code $uri} to the
     * signed uri and the cookie to the bound value (blanks and anything else in the cookie change nothing).
     */
    static String signature(long expires, String uri, String bound, String secret) {
        return digest(bound.isEmpty() ? expires + uri + " " + secret
                : expires + uri + SEPARATOR + bound + " " + secret);
    }

    private static String digest(String input) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            byte[] digest = md5.digest(input.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void checkRelative(String p) {
        Objects.requireNonNull(p, "relativePath");
        if (p.isEmpty() || p.startsWith("/") || p.endsWith("/")) {
            throw new IllegalArgumentException(Messages.get("signed.path", p));
        }
        for (String segment : p.split("/", -1)) {
            if (segment.isEmpty() || PathRules.isDotSegment(segment)) {
                throw new IllegalArgumentException(Messages.get("signed.path", p));
            }
        }
        for (int i = 0; i < p.length(); i++) {
            char c = p.charAt(i);
            if (PathRules.isControl(c) || c == SEPARATOR) {
                throw new IllegalArgumentException(Messages.get("signed.path", p.replaceAll("\\p{Cntrl}", "?")));
            }
        }
    }

    /** Never shows the secret. */
    @Override
    public String toString() {
        return "SignedLinks[prefix=" + prefix + ", ttl=" + ttl.getSeconds() + "s]";
    }
}
