package dev.xaccel.filter;

import java.util.Locale;

/**
 * Which front end reads the offload answer, as far as the filter may rely on it. Stated once in the configuration
 * (init-param {@code frontEnd}); the filter cannot see the front end.
 */
public enum FrontEnd {
    /**
     * Any of the shipped front ends (nginx, Apache httpd, lighttpd, Caddy): the offload answer carries every header
     * of the file, as some of them pass it on.
     */
    ANY,
    /**
     * nginx only. Across an {@code X-Accel-Redirect} nginx passes on only the upstream headers its table marks for
     * a redirect ({@code Content-Type}, {@code Content-Disposition}, {@code Cache-Control}, {@code Expires},
     * {@code Accept-Ranges}, {@code Set-Cookie}) and computes {@code ETag} and {@code Last-Modified} from the file
     * itself, so the offload answer leaves out those it would drop: the validators, {@code X-Content-Type-Options}
     * and {@code Content-Security-Policy} (the shipped internal locations add their own). Requires
     * {@code headerType=X-Accel-Redirect}; never behind Caddy, which shows the filter's {@code ETag}.
     */
    NGINX;

    /**
     * The init-param spelling.
     *
     * @return {@code any} or {@code nginx}
     */
    public String paramValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
