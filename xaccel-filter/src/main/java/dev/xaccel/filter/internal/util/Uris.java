package dev.xaccel.filter.internal.util;

import java.net.URI;

/** How a URI appears in messages and logs. */
public final class Uris {

    private Uris() {
    }

    /** The URL without its query (a presigned URL's query is the credential), for messages and logs. */
    public static String withoutQuery(URI url) {
        String s = (url.getScheme() == null ? "" : url.getScheme() + "://")
                + (url.getRawAuthority() == null ? "" : url.getRawAuthority())
                + (url.getRawPath() == null ? "" : url.getRawPath());
        return url.getRawQuery() == null ? s : s + "?…";
    }
}
