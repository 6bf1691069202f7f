package dev.xaccel.sample;

import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Resolves {@code ${env:NAME:-default}} and {@code ${sys:name:-default}} in context-param values, the
 * same syntax the xaccel filter accepts in its init-params. Defaults may themselves contain placeholders.
 * An unresolved placeholder without default resolves to the empty string.
 */
public final class Placeholders {

    private final UnaryOperator<String> env;
    private final UnaryOperator<String> sys;

    public Placeholders(UnaryOperator<String> env, UnaryOperator<String> sys) {
        this.env = env;
        this.sys = sys;
    }

    /** Resolves against the process environment and the JVM system properties. */
    public static Placeholders system() {
        return new Placeholders(System::getenv, System::getProperty);
    }

    /** For tests. */
    public static Placeholders of(Map<String, String> env, Map<String, String> sys) {
        return new Placeholders(env::get, sys::get);
    }

    public String resolve(String value) {
        if (value == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(value.length());
        int i = 0;
        while (i < value.length()) {
            int start = value.indexOf("${", i);
            if (start < 0) {
                out.append(value, i, value.length());
                break;
            }
            out.append(value, i, start);
            int end = matchingBrace(value, start + 2);
            if (end < 0) {
                throw new IllegalArgumentException(Messages.get("placeholder.unterminated", value));
            }
            out.append(expand(value.substring(start + 2, end), value));
            i = end + 1;
        }
        return out.toString();
    }

    private String expand(String body, String whole) {
        String fallback = null;
        int dflt = body.indexOf(":-");
        String key = dflt < 0 ? body : body.substring(0, dflt);
        if (dflt >= 0) {
            fallback = body.substring(dflt + 2);
        }
        String found;
        if (key.startsWith("env:")) {
            found = env.apply(key.substring(4));
        } else if (key.startsWith("sys:")) {
            found = sys.apply(key.substring(4));
        } else {
            throw new IllegalArgumentException(Messages.get("placeholder.unknown", key, whole));
        }
        if (found != null && !found.isEmpty()) {
            return found;
        }
        return fallback == null ? "" : resolve(fallback);
    }

    private static int matchingBrace(String s, int from) {
        int depth = 1;
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '{' && i > 0 && s.charAt(i - 1) == '$') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }
}
