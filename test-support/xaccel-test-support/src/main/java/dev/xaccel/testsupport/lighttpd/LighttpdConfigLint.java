package dev.xaccel.testsupport.lighttpd;

import dev.xaccel.testsupport.frontend.ConfigText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules a shipped lighttpd config keeps, checked on its text (comments removed); each is a failure measured on
 * the real server (docs/front-ends.md):
 * <ul>
 * <li>it binds loopback only;</li>
 * <li>{@code "x-sendfile" => "enable"} comes with {@code "x-sendfile-docroot"} naming literal data roots, never
 * {@code /}: without a docroot lighttpd opens any path the application names;</li>
 * <li>{@code X-LIGHTTPD-send-file} is never relied on (lighttpd honours it from mod_fastcgi only);</li>
 * <li>{@code server.follow-symlink = "disable"}: a static link out of the root is refused (the race remains);</li>
 * <li>{@code server.stat-cache-engine = "disable"}: with its stat cache lighttpd sends the file that was there
 * before a replacement, under the application's answer for the new one;</li>
 * <li>{@code "server.h2proto" => "disable"} in {@code server.feature-flags}: otherwise the cleartext port speaks
 * h2c (prior knowledge and {@code Upgrade: h2c}), one more parser in front of the application;</li>
 * <li>the marker is set ({@code "X-Sendfile-Type" => "X-Sendfile"}) and the client's {@code X-Forwarded-For} removed
 * ({@code => ""}).</li>
 * </ul>
 */
public final class LighttpdConfigLint {

    private static final Pattern DOCROOT = Pattern.compile("\"x-sendfile-docroot\"\\s*=>\\s*\\(([^)]*)\\)");

    private LighttpdConfigLint() {
    }

    /** One line per broken rule; empty when the config keeps them all. {@code ${NAME}} counts as a literal. */
    public static List<String> problems(String config) {
        String text = ConfigText.of(config);
        List<String> problems = new ArrayList<>();
        if (!text.matches("(?s).*server\\.bind\\s*=\\s*\"127\\.0\\.0\\.1\".*")) {
            problems.add("server.bind is not 127.0.0.1");
        }
        if (!text.matches("(?s).*\"x-sendfile\"\\s*=>\\s*\"enable\".*")) {
            problems.add("no \"x-sendfile\" => \"enable\" in proxy.server");
        }
        Matcher docroot = DOCROOT.matcher(text);
        if (!docroot.find()) {
            problems.add("no \"x-sendfile-docroot\": any path the application names is opened");
        } else {
            for (String entry : docroot.group(1).split(",")) {
                String root = entry.trim().replace("\"", "");
                if (root.isEmpty()) {
                    continue;
                }
                if (root.equals("/") || root.contains("$")) {
                    problems.add("x-sendfile-docroot " + root + " is not one data root");
                }
            }
        }
        if (text.contains("X-LIGHTTPD-send-file")) {
            problems.add("X-LIGHTTPD-send-file is ignored through mod_proxy (an empty 200)");
        }
        if (!text.matches("(?s).*server\\.follow-symlink\\s*=\\s*\"disable\".*")) {
            problems.add("no server.follow-symlink = \"disable\": links out of the root are followed");
        }
        if (!text.matches("(?s).*server\\.stat-cache-engine\\s*=\\s*\"disable\".*")) {
            problems.add("no server.stat-cache-engine = \"disable\": a replaced file is sent in its old version");
        }
        if (!text.matches("(?s).*server\\.feature-flags\\s*=\\s*\\([^)]*\"server\\.h2proto\"\\s*=>\\s*"
                + "\"disable\".*")) {
            problems.add("no server.feature-flags \"server.h2proto\" => \"disable\": the cleartext port speaks h2c");
        }
        if (!text.matches("(?s).*\"X-Sendfile-Type\"\\s*=>\\s*\"X-Sendfile\".*")) {
            problems.add("no \"X-Sendfile-Type\" => \"X-Sendfile\" in setenv.set-request-header (the filter's marker)");
        }
        if (!text.matches("(?s).*\"X-Forwarded-For\"\\s*=>\\s*\"\".*")) {
            problems.add("the client's X-Forwarded-For reaches the application (lighttpd appends to it)");
        }
        return problems;
    }
}
