package dev.xaccel.filter.internal.config;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.internal.util.Messages;

/**
 * Expands {@code ${env:NAME}}, {@code ${env:NAME:-default}}, {@code ${sys:name}} and
 * {@code ${sys:name:-default}} in init-param values. Single pass: expanded text is not scanned again, and a
 * default may not contain another placeholder. A placeholder that cannot be resolved and has no default, an
 * unknown source or an unterminated {@code ${} is a configuration error naming the param.
 */
public final class Placeholders {

    private final Function<String, String> env;
    private final Function<String, String> sys;

    public Placeholders(Function<String, String> env, Function<String, String> sys) {
        this.env = Objects.requireNonNull(env);
        this.sys = Objects.requireNonNull(sys);
    }

    /** Reads the real environment and system properties. */
    public static Placeholders system() {
        return new Placeholders(System::getenv, System::getProperty);
    }

    /** For tests. */
    public static Placeholders of(Map<String, String> env, Map<String, String> sys) {
        return new Placeholders(env::get, sys::get);
    }

    public String resolve(String param, String value) throws ConfigException {
        if (value == null || value.indexOf("${") < 0) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length());
        int pos = 0;
        while (true) {
            int start = value.indexOf("${", pos);
            if (start < 0) {
                out.append(value, pos, value.length());
                return out.toString();
            }
            out.append(value, pos, start);
            int end = value.indexOf('}', start + 2);
            if (end < 0) {
                throw ConfigException.invalid(param, value, Messages.get("config.placeholder.unterminated"));
            }
            String body = value.substring(start + 2, end);
            out.append(expand(param, value, body));
            pos = end + 1;
        }
    }

    private String expand(String param, String value, String body) throws ConfigException {
        Function<String, String> source;
        String rest;
        if (body.startsWith("env:")) {
            source = env;
            rest = body.substring(4);
        } else if (body.startsWith("sys:")) {
            source = sys;
            rest = body.substring(4);
        } else {
            throw ConfigException.invalid(param, value, Messages.get("config.placeholder.source", "${" + body + "}"));
        }
        String name = rest;
        String def = null;
        int sep = rest.indexOf(":-");
        if (sep >= 0) {
            name = rest.substring(0, sep);
            def = rest.substring(sep + 2);
        }
        if (name.isEmpty() || (def != null && def.contains("${"))) {
            throw ConfigException.invalid(param, value, Messages.get("config.placeholder.syntax", "${" + body + "}"));
        }
        String resolved = source.apply(name);
        if (resolved != null && !(resolved.isEmpty() && def != null)) {
            return resolved;
        }
        if (def != null) {
            return def; // like the shell's ${X:-d}: unset or empty takes the default
        }
        throw ConfigException.invalid(param, value, Messages.get("config.placeholder.unresolved", "${" + body + "}"));
    }
}
