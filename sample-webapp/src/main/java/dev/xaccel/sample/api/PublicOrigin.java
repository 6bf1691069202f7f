package dev.xaccel.sample.api;

import jakarta.servlet.http.HttpServletRequest;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The origin ({@code scheme://host[:port]}) a client used to reach the application, for the absolute URLs a podcast
 * feed needs (a feed is read outside the page, so its links cannot be relative). Behind nginx, Tomcat sees
 * {@code Host: $host} without the port, so the origin comes from the {@code X-Forwarded-Proto},
 * {@code X-Forwarded-Host} and {@code X-Forwarded-Port} headers the shipped config sets (nginx overwrites whatever
 * a client sent); values that are not a plain scheme, host name or address, and port are ignored in favour of
 * what the request itself says. Nothing depends on trusting them: a client that talks to Tomcat directly and sends
 * its own only changes the links in its own answer ({@code Cache-Control: private}).
 */
final class PublicOrigin {

    private static final Pattern HOST = Pattern.compile(
            "(?<host>[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]+\\])(?::(?<port>\\d{1,5}))?");
    private static final Pattern PORT = Pattern.compile("\\d{1,5}");

    private PublicOrigin() {
    }

    static String of(HttpServletRequest request) {
        String scheme = request.getScheme();
        String proto = request.getHeader("X-Forwarded-Proto");
        if (proto != null && (proto.equalsIgnoreCase("http") || proto.equalsIgnoreCase("https"))) {
            scheme = proto.toLowerCase(Locale.ROOT);
        }
        String host = request.getServerName();
        int port = request.getServerPort();
        String forwardedHost = request.getHeader("X-Forwarded-Host");
        Matcher m = forwardedHost == null ? null : HOST.matcher(forwardedHost.trim());
        if (m != null && m.matches()) {
            host = m.group("host");
            port = m.group("port") != null ? Integer.parseInt(m.group("port")) : defaultPort(scheme);
            String forwardedPort = request.getHeader("X-Forwarded-Port");
            if (m.group("port") == null && forwardedPort != null && PORT.matcher(forwardedPort.trim()).matches()) {
                port = Integer.parseInt(forwardedPort.trim());
            }
        }
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            host = "[" + host + "]";                            // an IPv6 literal from getServerName()
        }
        boolean defaultPort = port <= 0 || port > 65535 || port == defaultPort(scheme);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }

    private static int defaultPort(String scheme) {
        return "https".equals(scheme) ? 443 : 80;
    }
}
