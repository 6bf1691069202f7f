package dev.xaccel.testsupport.caddy;

import dev.xaccel.testsupport.frontend.ConfigText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules a shipped Caddyfile keeps, checked on its text (comments removed); each is a failure measured on the
 * real server (docs/front-ends.md):
 * <ul>
 * <li>{@code bind 127.0.0.1}: a site address does not restrict the listener;</li>
 * <li>{@code file_server} only inside {@code handle_response} (a client can never address the root), and each
 * {@code root} a literal data root inside a {@code handle_path} of its internal prefix, never {@code /};</li>
 * <li>the value goes through {@code uri replace} (decoded once), never {@code rewrite * {rp.header...}}, which takes
 * it undecoded and cuts it at its first {@code ?};</li>
 * <li>{@code copy_response_headers} (without it the client gets none of the application's headers, not even
 * Content-Type) excluding the offload header;</li>
 * <li>the marker is set and the client's {@code Forwarded}/{@code X-Real-IP} removed;</li>
 * <li>{@code handle_errors} answers a malformed chunked request body 400: Caddy reads it only while proxying, and
 * reverse_proxy would answer 502.</li>
 * </ul>
 */
public final class CaddyConfigLint {

    private static final Pattern ROOT = Pattern.compile("(?m)^\\s*root\\s+\\*\\s+(\\S+)");

    private CaddyConfigLint() {
    }

    /** One line per broken rule; empty when the config keeps them all. {@code ${NAME}} counts as a literal. */
    public static List<String> problems(String config) {
        String text = ConfigText.of(config);
        List<String> problems = new ArrayList<>();
        if (!text.matches("(?s).*\\n\\s*bind\\s+127\\.0\\.0\\.1\\s*\\n.*")) {
            problems.add("no bind 127.0.0.1: Caddy listens on every address");
        }
        String handled = ConfigText.block(text, "handle_response\\s+@\\w+\\s*\\{", '{', '}');
        if (handled == null) {
            problems.add("no handle_response on the offload header");
            return problems;
        }
        if (text.replace(handled, "").matches("(?s).*\\bfile_server\\b.*")) {
            problems.add("file_server outside handle_response: clients can address the root");
        }
        if (!handled.matches(
                "(?s).*\\buri\\s+replace\\s+/__xaccel__\\s+\\{rp\\.header\\.X-Accel-Redirect}\\s+1\\b.*")) {
            problems.add("the header value does not go through uri replace (decoded once)");
        }
        if (text.matches("(?s).*\\brewrite\\s+\\S+\\s+\\{rp\\.header\\..*")) {
            problems.add("rewrite with the header value: undecoded, cut at its first ?");
        }
        if (!handled.matches("(?s).*copy_response_headers\\s*\\{[^}]*exclude[^}]*\\bX-Accel-Redirect\\b.*")) {
            problems.add("no copy_response_headers excluding X-Accel-Redirect");
        }
        Matcher root = ROOT.matcher(text);
        int roots = 0;
        while (root.find()) {
            roots++;
            String r = root.group(1);
            if (r.equals("/") || r.contains("{")) {
                problems.add("root " + r + " is not one data root");
            }
        }
        if (roots == 0 || !handled.matches("(?s).*handle_path\\s+/_xaccel/[^\\s*]+/\\*\\s*\\{\\s*root\\s.*")) {
            problems.add("no root inside a handle_path of an internal prefix");
        }
        if (!text.matches("(?s).*header_up\\s+X-Sendfile-Type\\s+X-Accel-Redirect\\b.*")) {
            problems.add("no header_up X-Sendfile-Type X-Accel-Redirect (the filter's marker)");
        }
        String errors = ConfigText.block(text, "handle_errors\\s*\\{", '{', '}');
        if (errors == null || !errors.matches("(?s).*\\{err\\.message\\}\\.contains\\(\"chunk\"\\).*")
                || !errors.matches("(?s).*\\brespond\\s+@\\w+\\s+\"[^\"]*\"\\s+400\\b.*")) {
            problems.add("no handle_errors answering a malformed chunked body 400: reverse_proxy answers 502");
        }
        for (String h : List.of("Forwarded", "X-Real-IP")) {
            if (!text.matches("(?s).*header_up\\s+-" + h + "\\b.*")) {
                problems.add("the client's " + h + " reaches the application");
            }
        }
        return problems;
    }
}
