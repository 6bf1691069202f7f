package dev.xaccel.sample.api;

import java.text.MessageFormat;
import java.util.Locale;
import java.util.ResourceBundle;

/** Messages of this package, from {@code LocalStrings.properties}. */
final class Messages {

    private static final ResourceBundle BUNDLE =
            ResourceBundle.getBundle("dev.xaccel.sample.api.LocalStrings", Locale.ROOT);

    private Messages() {
    }

    static String get(String key, Object... args) {
        return MessageFormat.format(BUNDLE.getString(key), args);
    }
}
