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
 * </ul>
 */
public final class NginxConfigLint {

    private static final Pattern LOCATION = Pattern.compile("location\\s+([^{]*?)\\s*\\{");
    private static final Pattern DIRECTORY = Pattern.compile("(?m)^\\s*(alias|root)\\s+([^;]+);");
    private static final Pattern BUFFER = Pattern.compile("(?m)^\\s*proxy_buffer_size\\s+(\\d+)k\\s*;");

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
                if (!l.body().matches("(?s).*add_header\\s+X-Content-Type-Options\\s+nosniff\\s+always\\s*;.*")) {
                    problems.add(where + "no add_header X-Content-Type-Options nosniff always");
                }
                if (!l.body().matches("(?s).*add_header\\s+Content-Security-Policy\\s+\"[^\"]*\\bsandbox\\b[^\"]*\"\\s+always\\s*;.*")) {
                    problems.add(where + "no sandboxing add_header Content-Security-Policy ... always");
                }
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
