package dev.xaccel.tomcat.internal.sendfile;

import org.apache.tomcat.util.res.StringManager;

/** This package's {@code LocalStrings.properties}, read through Tomcat's {@link StringManager}. */
final class Messages {

    private static final StringManager SM = StringManager.getManager(Messages.class);

    private Messages() {
    }

    static String get(String key, Object... args) {
        return SM.getString(key, args);
    }
}
