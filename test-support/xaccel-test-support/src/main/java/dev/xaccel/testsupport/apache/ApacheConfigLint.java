package dev.xaccel.testsupport.apache;

import dev.xaccel.testsupport.frontend.ConfigText;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules a shipped Apache httpd + mod_xsendfile config keeps, checked on its text (comments removed); each is a
 * failure measured on the real server (docs/front-ends.md):
 * <ul>
 * <li>it listens on loopback only;</li>
 * <li>nothing is served by URL: {@code <Directory />} denies everything;</li>
 * <li>every {@code XSendFilePath} names a literal data root, never {@code /} (mod_xsendfile then opens any file
 * the worker can read), and there is at least one (without, the only root is the directory of the request, which
 * for a proxied one is {@code proxy:...}: every offload is a 404);</li>
 * <li>{@code XSendFile On} only where requests are proxied to the application;</li>
 * <li>{@code FileETag None}: mod_xsendfile 0.12's own ETag is the constant {@code "0"} for every proxied file;</li>
 * <li>the offload header is removed on non-200 answers only: a plain {@code Header unset X-Sendfile} runs before
 * mod_xsendfile and turns every download into an empty 200, no rule at all shows the path on a 404;</li>
 * <li>the marker is set ({@code RequestHeader set X-Sendfile-Type "X-Sendfile"}) and the client's
 * {@code X-Forwarded-For} is removed; no {@code RequestHeader ... early} (accepted in {@code <Location>}, but it does
 * nothing there);</li>
 * <li>{@code ProxyPass ... nocanon}: otherwise Apache decodes {@code %3B} to {@code ;}, which the application reads
 * as a path parameter;</li>
 * <li>a {@code Transfer-Encoding} other than a lone {@code chunked} is answered 501 by mod_rewrite in the proxied
 * {@code <Location>}: otherwise mod_proxy_http answers a list ending in {@code chunked} with a 500.</li>
 * </ul>
 */
public final class ApacheConfigLint {

    private static final Pattern LISTEN = Pattern.compile("(?m)^\\s*Listen\\s+(\\S+)");
    private static final Pattern ROOT_DIRECTORY = Pattern.compile("(?s)<Directory\\s+\"?/\"?\\s*>(.*?)</Directory>");
    private static final Pattern SENDFILE_PATH = Pattern.compile("(?m)^\\s*XSendFilePath\\s+(\\S+)");

    private ApacheConfigLint() {
    }

    /** One line per broken rule; empty when the config keeps them all. {@code ${NAME}} counts as a literal. */
    public static List<String> problems(String config) {
        String text = ConfigText.of(config);
        List<String> problems = new ArrayList<>();
        Matcher listen = LISTEN.matcher(text);
        boolean listens = false;
        while (listen.find()) {
            listens = true;
            if (!listen.group(1).startsWith("127.0.0.1:")) {
                problems.add("Listen " + listen.group(1) + " is not loopback only");
            }
        }
        if (!listens) {
            problems.add("no Listen");
        }
        Matcher rootDir = ROOT_DIRECTORY.matcher(text);
        if (!rootDir.find() || !rootDir.group(1).matches("(?s).*Require\\s+all\\s+denied.*")) {
            problems.add("<Directory /> does not deny everything");
        }
        Matcher path = SENDFILE_PATH.matcher(text);
        int paths = 0;
        while (path.find()) {
            paths++;
            String p = path.group(1).replace("\"", "");
            if (p.equals("/") || p.contains("$") || p.contains("%")) {
                problems.add("XSendFilePath " + p + " is not one data root");
            }
        }
        if (paths == 0) {
            problems.add("no XSendFilePath: every offload is a 404");
        }
        String location = locationOf(text);
        if (location == null || !location.matches("(?s).*\\bProxyPass\\s.*")) {
            problems.add("no <Location> that proxies to the application");
            return problems;
        }
        String outside = text.replace(location, "");
        if (outside.matches("(?s).*XSendFile\\s+On.*")) {
            problems.add("XSendFile On outside the proxied <Location>");
        }
        if (!location.matches("(?s).*XSendFile\\s+On.*")) {
            problems.add("no XSendFile On in the proxied <Location>");
        }
        if (!text.matches("(?s).*FileETag\\s+None.*")) {
            problems.add("no FileETag None: every proxied file would get ETag \"0\"");
        }
        if (!location.matches("(?s).*\\bProxyPass\\s+\\S+\\s+nocanon\\b.*")) {
            problems.add("ProxyPass without nocanon: %3B reaches the application as a path parameter");
        }
        if (!location.matches("(?s).*RequestHeader\\s+set\\s+X-Sendfile-Type\\s+\"?X-Sendfile\"?\\s*\n.*")) {
            problems.add("no RequestHeader set X-Sendfile-Type \"X-Sendfile\" (the filter's marker)");
        }
        if (!location.matches("(?s).*RequestHeader\\s+unset\\s+X-Forwarded-For\\s*\n.*")) {
            problems.add("the client's X-Forwarded-For reaches the application");
        }
        if (text.matches("(?s).*RequestHeader\\s+\\S+\\s+\\S+(\\s+\\S+)?\\s+early\\b.*")) {
            problems.add("RequestHeader ... early has no effect inside <Location>");
        }
        if (!location.matches("(?s).*RewriteEngine\\s+On\\s*\n.*")
                || !location.contains("RewriteCond %{HTTP:Transfer-Encoding} !^(chunked)?$ [NC]")
                || !location.matches("(?s).*RewriteRule\\s+\\^\\s+-\\s+\\[R=501,L\\].*")) {
            problems.add("no RewriteRule answering 501 to a Transfer-Encoding other than chunked: mod_proxy_http "
                    + "answers 500");
        }
        Matcher unset = Pattern.compile("(?m)^\\s*Header\\s+(?:always\\s+)?unset\\s+X-Sendfile\\b(.*)$")
                .matcher(location);
        boolean conditional = false;
        while (unset.find()) {
            if (unset.group(1).contains("expr=%{REQUEST_STATUS} != 200")) {
                conditional = true;
            } else {
                problems.add("Header unset X-Sendfile without the non-200 condition turns every download into an "
                        + "empty 200");
            }
        }
        if (!conditional) {
            problems.add("no Header unset X-Sendfile \"expr=%{REQUEST_STATUS} != 200\": a non-200 shows the path");
        }
        return problems;
    }

    /** The first {@code <Location>} block's body. */
    private static String locationOf(String text) {
        int open = text.indexOf("<Location");
        int close = text.indexOf("</Location>", open + 1);
        return open < 0 || close < 0 ? null : text.substring(open, close);
    }
}
