package dev.xaccel.testsupport.frontend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.apache.ApacheConfigLint;
import dev.xaccel.testsupport.caddy.CaddyConfigLint;
import dev.xaccel.testsupport.lighttpd.LighttpdConfigLint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipped Apache, lighttpd and Caddy configs keep their lint's rules, and each rule finds the measured mistake
 * it is about when it is made in the shipped text.
 */
class ShippedConfigLintTest {

    static Function<String, List<String>> lint(String file) {
        return switch (file) {
            case "docs/apache/xaccel.conf" -> ApacheConfigLint::problems;
            case "docs/lighttpd/xaccel.conf" -> LighttpdConfigLint::problems;
            default -> CaddyConfigLint::problems;
        };
    }

    static String text(String file) throws IOException {
        return Files.readString(TestPaths.repositoryFile(file), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"docs/apache/xaccel.conf", "docs/lighttpd/xaccel.conf", "docs/caddy/Caddyfile"})
    void theShippedConfigKeepsEveryRule(String file) throws IOException {
        assertEquals(List.of(), lint(file).apply(text(file)), file);
    }

    /**
     * Each TLS variant includes its shipped config (no rule copied, none to drift) and, with that included, keeps
     * every rule of the lint; and it says what makes it HTTPS with HTTP/2.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "docs/apache/xaccel-tls.conf | docs/apache/xaccel.conf | Include \"${CONF_DIR}/xaccel.conf\""
                + " | Protocols             h2 http/1.1",
        "docs/lighttpd/xaccel-tls.conf | docs/lighttpd/xaccel.conf | include \"xaccel.conf\""
                + " | server.feature-flags := ( \"server.h2proto\" => \"enable\" )",
        "docs/caddy/Caddyfile-tls | docs/caddy/Caddyfile | import Caddyfile | tls ${TLS_CERT} ${TLS_KEY}",
    })
    void eachTlsVariantIncludesItsShippedConfigAndKeepsEveryRule(String tls, String shipped, String include,
            String tlsLine) throws IOException {
        String text = text(tls);
        assertTrue(text.contains("\n" + include + "\n"), tls + " includes " + shipped + " by " + include);
        assertTrue(text.contains(tlsLine), tls + " has " + tlsLine);
        assertEquals(List.of(), lint(shipped).apply(text.replace(include, text(shipped))), tls);
    }

    @ParameterizedTest(name = "{0}: {1} -> {3}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "docs/apache/xaccel.conf | Listen 127.0.0.1:${FRONT_PORT} | Listen ${FRONT_PORT} | not loopback",
        "docs/apache/xaccel.conf | XSendFilePath \"${MEDIA_ROOT}\" | XSendFilePath / | not one data root",
        "docs/apache/xaccel.conf | XSendFilePath \"${MEDIA_ROOT}\" | `` | no XSendFilePath",
        "docs/apache/xaccel.conf | FileETag None | FileETag MTime Size | ETag",
        "docs/apache/xaccel.conf | \" nocanon | \" | nocanon",
        "docs/apache/xaccel.conf | Header unset X-Sendfile \"expr=%{REQUEST_STATUS} != 200\""
                + " | Header unset X-Sendfile | empty 200",
        "docs/apache/xaccel.conf | Header unset X-Sendfile \"expr=%{REQUEST_STATUS} != 200\" | `` | shows the path",
        "docs/apache/xaccel.conf | RequestHeader unset X-Forwarded-For"
                + " | RequestHeader unset X-Forwarded-For early | early",
        "docs/apache/xaccel.conf | RequestHeader unset X-Forwarded-For | `` | X-Forwarded-For",
        "docs/apache/xaccel.conf | RequestHeader set X-Sendfile-Type \"X-Sendfile\" | `` | marker",
        "docs/apache/xaccel.conf | Require all denied | Require all granted | deny everything",
        "docs/apache/xaccel.conf | ServerName 127.0.0.1 | ServerName 127.0.0.1\\nXSendFile On | outside the proxied",
        "docs/apache/xaccel.conf | RewriteRule ^ - [R=501,L] | `` | Transfer-Encoding",
        "docs/lighttpd/xaccel.conf | server.feature-flags = ( \"server.h2proto\" => \"disable\" ) | `` | h2c",
        "docs/lighttpd/xaccel.conf | server.bind          = \"127.0.0.1\" | server.bind = \"0.0.0.0\" | 127.0.0.1",
        "docs/lighttpd/xaccel.conf | \"x-sendfile-docroot\" => ( \"${MEDIA_ROOT}\" ), | `` | any path",
        "docs/lighttpd/xaccel.conf | ( \"${MEDIA_ROOT}\" ) | ( \"/\" ) | not one data root",
        "docs/lighttpd/xaccel.conf | server.follow-symlink = \"disable\" | `` | follow-symlink",
        "docs/lighttpd/xaccel.conf | server.stat-cache-engine = \"disable\" | `` | old version",
        "docs/lighttpd/xaccel.conf | \"X-Forwarded-For\" => \"\", | `` | X-Forwarded-For",
        "docs/lighttpd/xaccel.conf | \"X-Sendfile-Type\" => \"X-Sendfile\","
                + " | \"X-Sendfile-Type\" => \"X-LIGHTTPD-send-file\", | mod_proxy",
        "docs/caddy/Caddyfile | \\tbind 127.0.0.1 | `` | bind",
        "docs/caddy/Caddyfile | uri replace /__xaccel__ {rp.header.X-Accel-Redirect} 1"
                + " | rewrite * {rp.header.X-Accel-Redirect} | cut at its first",
        "docs/caddy/Caddyfile | \\t\\t\\t\\texclude X-Accel-Redirect X-Accel-Raw-Path"
                + " | \\t\\t\\t\\texclude X-Accel-Raw-Path | copy_response_headers",
        "docs/caddy/Caddyfile | root * ${MEDIA_ROOT} | root * / | not one data root",
        "docs/caddy/Caddyfile | \\treverse_proxy | \\tfile_server\\n\\treverse_proxy | outside handle_response",
        "docs/caddy/Caddyfile | header_up -X-Real-IP | `` | X-Real-IP",
        "docs/caddy/Caddyfile | \"Bad Request\" 400 | \"Bad Request\" 502 | malformed chunked body",
    })
    void eachRuleFindsItsMistake(String file, String find, String replace, String problem) throws IOException {
        String shipped = text(file);
        String from = find.replace("\\n", "\n").replace("\\t", "\t");
        assertTrue(shipped.contains(from), file + " has no " + from);
        String broken = shipped.replace(from, replace.replace("\\n", "\n").replace("\\t", "\t"));
        List<String> problems = lint(file).apply(broken);
        assertTrue(problems.stream().anyMatch(p -> p.contains(problem)), file + ": " + problems);
    }
}
