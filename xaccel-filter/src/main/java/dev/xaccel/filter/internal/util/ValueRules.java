package dev.xaccel.filter.internal.util;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules of the values nginx reads from an answer ({@code X-Accel-Limit-Rate}, {@code X-Accel-Expires},
 * {@code X-Accel-Charset} and other HTTP tokens), in one place for the init-params and a declaration's own
 * values alike. Each returns the rule a value breaks, empty when it is valid; the caller words the
 * refusal (a startup failure naming the init-param, an {@code IllegalArgumentException} naming the value).
 */
public final class ValueRules {

    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern EXPIRES = Pattern.compile("@?\\d{1,18}");

    private ValueRules() {
    }

    /** Bytes per second, {@code >= 0}: units such as {@code 100k} cannot be given (nginx ignores them). */
    public static Optional<String> limitRate(long bytesPerSecond) {
        return bytesPerSecond < 0 ? Optional.of(Messages.get("config.limitRate")) : Optional.empty();
    }

    /** Seconds, or {@code @} followed by epoch seconds. */
    public static Optional<String> accelExpires(String value) {
        return value == null || !EXPIRES.matcher(value).matches() ? Optional.of(Messages.get("config.accelExpires"))
                : Optional.empty();
    }

    /** An HTTP token (RFC 9110 {@code token}). */
    public static Optional<String> token(String value) {
        return isToken(value) ? Optional.empty() : Optional.of(Messages.get("config.token"));
    }

    /** Whether the value is an HTTP token. */
    public static boolean isToken(String value) {
        return value != null && TOKEN.matcher(value).matches();
    }
}
