package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.frontend.ConfigText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules every shipped nginx config keeps, checked on its text (comments removed): the structural half of the
 * boundary guarantee, which the differential test checks by behaviour.
 * <ul>
 * <li>A location that serves files ({@code alias} or {@code root}) names a literal directory: never a variable, so
 * the file is never chosen by nginx's own reading of the request ({@code $uri}, a regex capture).</li>
 * <li>It is {@code internal} (reached only through the application's answer) or verifies a signature
 * ({@code secure_link}).</li>
 * <li>It confines again at open time: {@code disable_symlinks on from=<that directory>}.</li>
 * <li>It sends {@code X-Content-Type-Options: nosniff} and a sandboxing {@code Content-Security-Policy}.</li>
 * <li>No {@code proxy_cache_valid}: only the application's allows (with {@code X-Accel-Expires} and {@code Vary})
 * are cached, never a denial or anything else.</li>
 * <li>{@code proxy_buffer_size} is set to at least 16k (long offload headers).</li>
 * <li>A location that proxies to a host chosen by a variable (the remote-object pattern, where the application's
 * redirect names the store) is {@code internal}, and its host variable comes from a {@code map} whose default is
 * empty and whose every value is an {@code upstream} of the config: never a free {@code proxy_pass $var}, so
 * nginx reaches only the listed stores. It sends no client header but those it sets
 * ({@code proxy_pass_request_headers off}, or at least {@code Authorization} and {@code Cookie} cleared), ignores
 * the store's {@code X-Accel-Redirect} and hides its {@code Set-Cookie}, streams without temp files
 * ({@code proxy_max_temp_file_size 0}), answers the store's errors itself ({@code proxy_intercept_errors on}), and
 * sends the same nosniff and sandboxing headers as a file location.</li>
 * </ul>
 */
public final class NginxConfigLint {

    private static final Pattern LOCATION = Pattern.compile("location\\s+([^{]*?)\\s*\\{");
    private static final Pattern DIRECTORY = Pattern.compile("(?m)^\\s*(alias|root)\\s+([^;]+);");
    private static final Pattern BUFFER = Pattern.compile("(?m)^\\s*proxy_buffer_size\\s+(\\d+)k\\s*;");
    private static final Pattern PROXY_PASS = Pattern.compile("(?m)^\\s*proxy_pass\\s+([^;\\s]+)\\s*;");
    private static final Pattern UPSTREAM = Pattern.compile("(?m)^\\s*upstream\\s+([A-Za-z0-9_.@-]+)\\s*\\{");
    private static final Pattern MAP =
            Pattern.compile("(?m)^\\s*map\\s+(?:\"[^\"]*\"|\\S+)\\s+\\$(\\w+)\\s*\\{([^}]*)}");
    private static final Pattern MAP_ENTRY =
            Pattern.compile("(?m)^\\s*(\"[^\"]*\"|\\S+)\\s+(\"[^\"]*\"|[^;\\s]+)\\s*;");

    private NginxConfigLint() {
    }

    /** A location block: its match arguments and its body (without nested blocks' braces stripped). */
    public record Location(String match, String body) {
    }

    /**
     * @param config a config or a template: {@code ${NAME}} placeholders (upper case) count as the literal values
     *               they stand for
     * @return one line per broken rule; empty when the config keeps them all
     */
    public static List<String> problems(String config) {
        String text = withoutComments(config).replaceAll("\\$\\{([A-Z][A-Z0-9_]*)}", "@$1@");
        List<String> problems = new ArrayList<>();
        for (Location l : locations(text)) {
            Matcher dir = DIRECTORY.matcher(l.body());
            while (dir.find()) {
                String path = dir.group(2).trim();
                String where = "location " + l.match() + ": ";
                if (path.contains("$")) {
                    problems.add(where + dir.group(1) + " " + path + " is chosen by a variable");
                }
                if (!Pattern.compile("(?m)^\\s*internal\\s*;").matcher(l.body()).find()
                        && !l.body().contains("secure_link ")) {
                    problems.add(where + "serves files but is neither internal nor signed");
                }
                String root = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
                if (!l.body().matches("(?s).*\\bdisable_symlinks\\s+on\\s+from=" + Pattern.quote(root) + "\\s*;.*")) {
                    problems.add(where + "no disable_symlinks on from=" + root);
                }
                securityHeaders(l, where, problems);
            }
            Matcher proxy = PROXY_PASS.matcher(l.body());
            while (proxy.find()) {
                proxyingRules(text, l, proxy.group(1), problems);
            }
        }
        if (text.contains("proxy_cache_valid")) {
            problems.add("proxy_cache_valid caches answers the application did not mark cacheable");
        }
        Matcher buffer = BUFFER.matcher(text);
        if (!buffer.find() || Integer.parseInt(buffer.group(1)) < 16) {
            problems.add("proxy_buffer_size below 16k: long offload headers would give 502");
        }
        return problems;
    }

    private static void securityHeaders(Location l, String where, List<String> problems) {
        if (!l.body().matches("(?s).*add_header\\s+X-Content-Type-Options\\s+nosniff\\s+always\\s*;.*")) {
            problems.add(where + "no add_header X-Content-Type-Options nosniff always");
        }
        if (!l.body().matches(
                "(?s).*add_header\\s+Content-Security-Policy\\s+\"[^\"]*\\bsandbox\\b[^\"]*\"\\s+always\\s*;.*")) {
            problems.add(where + "no sandboxing add_header Content-Security-Policy ... always");
        }
    }

    /** The rules of a location whose {@code proxy_pass} names its host by a variable (a remote store). */
    private static void proxyingRules(String config, Location l, String target, List<String> problems) {
        String where = "location " + l.match() + ": ";
        int scheme = target.indexOf("://");
        if (scheme < 0) {
            problems.add(where + "proxy_pass " + target + " takes its whole URL from a variable (an open proxy)");
            return;
        }
        String rest = target.substring(scheme + 3);
        if (!rest.startsWith("$")) {
            return; // a literal host: the application's upstream
        }
        Matcher name = Pattern.compile("\\$(\\w+)").matcher(rest);
        name.lookingAt();
        String variable = name.group(1);
        if (!Pattern.compile("(?m)^\\s*internal\\s*;").matcher(l.body()).find()) {
            problems.add(where + "proxies to a host chosen by $" + variable + " but is not internal");
        }
        String mapProblem = mappedToUpstreams(config, variable);
        if (mapProblem != null) {
            problems.add(where + "proxy_pass host $" + variable + " " + mapProblem);
        }
        String body = l.body();
        boolean noClientHeaders = body.matches("(?s).*\\bproxy_pass_request_headers\\s+off\\s*;.*")
                || (body.matches("(?s).*proxy_set_header\\s+Authorization\\s+\"\"\\s*;.*")
                        && body.matches("(?s).*proxy_set_header\\s+Cookie\\s+\"\"\\s*;.*"));
        if (!noClientHeaders) {
            problems.add(where + "passes the client's Authorization and Cookie to the store");
        }
        if (!body.matches("(?s).*\\bproxy_ignore_headers\\s[^;]*\\bX-Accel-Redirect\\b[^;]*;.*")) {
            problems.add(where + "no proxy_ignore_headers X-Accel-Redirect: the store could redirect nginx again");
        }
        if (!body.matches("(?s).*\\bproxy_hide_header\\s+Set-Cookie\\s*;.*")) {
            problems.add(where + "no proxy_hide_header Set-Cookie");
        }
        if (!body.matches("(?s).*\\bproxy_max_temp_file_size\\s+0\\s*;.*")) {
            problems.add(where + "no proxy_max_temp_file_size 0: large objects would go through temp files");
        }
        if (!body.matches("(?s).*\\bproxy_intercept_errors\\s+on\\s*;.*")) {
            problems.add(where + "no proxy_intercept_errors on: the store's error bodies would reach clients");
        }
        securityHeaders(l, where, problems);
    }

    /** {@code null} when {@code $variable} is a map's result with an empty default and upstream names only. */
    private static String mappedToUpstreams(String config, String variable) {
        java.util.Set<String> upstreams = new java.util.HashSet<>();
        Matcher u = UPSTREAM.matcher(config);
        while (u.find()) {
            upstreams.add(u.group(1));
        }
        Matcher m = MAP.matcher(config);
        while (m.find()) {
            if (!m.group(1).equals(variable)) {
                continue;
            }
            Matcher e = MAP_ENTRY.matcher(m.group(2));
            while (e.find()) {
                String value = e.group(2).replace("\"", "");
                if (e.group(1).equals("default")) {
                    if (!value.isEmpty()) {
                        return "has the default " + value + " (must be \"\")";
                    }
                } else if (!upstreams.contains(value)) {
                    return "maps to " + value + ", which is no upstream of this config";
                }
            }
            return null;
        }
        return "is not set by a map to upstreams (a free proxy_pass $var)";
    }

    /** Every location block, outermost and nested, in order. */
    public static List<Location> locations(String config) {
        String text = withoutComments(config);
        List<Location> out = new ArrayList<>();
        Matcher m = LOCATION.matcher(text);
        while (m.find()) {
            int open = m.end() - 1;
            int depth = 0;
            int i = open;
            for (; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth == 0) {
                    break;
                }
            }
            out.add(new Location(m.group(1).trim(), text.substring(open + 1, i)));
        }
        return out;
    }

    /** The config without {@code #} comments (outside quotes). */
    static String withoutComments(String config) {
        return ConfigText.withoutComments(config);
    }
}
