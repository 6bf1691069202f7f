package dev.xaccel.filter.internal.util;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.ResourceBundle;

/**
 * Package-private access to {@code dev/xaccel/filter/LocalStrings.properties}, in the spirit of Tomcat's
 * {@code StringManager}: {@code Messages.get("key", args...)} formats the message with
 * {@link MessageFormat}; an unknown key yields the key itself (and the arguments) so a missing entry never
 * hides the original problem.
 */
public final class Messages {

    private static final String BUNDLE = "dev.xaccel.filter.LocalStrings";

    private Messages() {
    }

    public static String get(String key, Object... args) {
        String pattern;
        try {
            pattern = ResourceBundle.getBundle(BUNDLE, Locale.getDefault(), Messages.class.getClassLoader())
                    .getString(key);
        } catch (MissingResourceException e) {
            StringBuilder sb = new StringBuilder(key);
            for (Object arg : args) {
                sb.append(' ').append(arg);
            }
            return sb.toString();
        }
        if (args == null || args.length == 0) {
            return pattern;
        }
        return new MessageFormat(pattern, Locale.ROOT).format(args);
    }
}
