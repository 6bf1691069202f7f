package dev.xaccel.filter;

import dev.xaccel.testsupport.nginx.DocsNginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Guards the pitfalls in docs/nginx/xaccel-cached-auth.conf.template and xaccel-signed-links.conf.template. */
class SmallFilesTemplateTest {

    static String directives(String template) throws IOException {
        return DocsNginx.text(template).replaceAll("(?m)#.*$", "");
    }

    static String block(String text, String header) {
        int start = text.indexOf(header);
        assertTrue(start >= 0, "no block " + header);
        int depth = 0;
        for (int i = start + header.length() - 1; i < text.length(); i++) {
            if (text.charAt(i) == '{') {
                depth++;
            } else if (text.charAt(i) == '}' && --depth == 0) {
                return text.substring(start, i + 1);
            }
        }
        throw new AssertionError("unterminated block " + header);
    }

    static void assertHas(String block, String regex) {
        assertTrue(Pattern.compile(regex).matcher(block).find(), "missing " + regex + " in " + block);
    }

    @Test
    void cachedAuthLocationKeysOnEveryCredentialAndNeverCachesCookiesOrIgnoresVary() throws IOException {
        String conf = directives(DocsNginx.CACHED_TEMPLATE);
        String auth = block(conf, "location = /_xaccel_auth {");
        assertHas(auth, "\\binternal;");
        assertHas(auth, "proxy_pass\\s+http://xaccel_app\\$request_uri;");
        assertHas(auth, "proxy_pass_request_body\\s+off;");
        assertHas(auth, "proxy_set_header\\s+Content-Length\\s+\"\";");
        assertHas(auth, "proxy_http_version\\s+1\\.1;");
        assertHas(auth, "proxy_set_header\\s+Connection\\s+\"\";");
        assertHas(auth, "proxy_set_header\\s+Host\\s+\\$host;");
        assertHas(auth, "proxy_set_header\\s+X-Sendfile-Type\\s+X-Accel-Redirect;");
        assertHas(auth, "proxy_cache\\s+xaccel_auth;");
        assertHas(auth, "proxy_cache_lock\\s+on;");
        assertFalse(auth.contains("proxy_cache_valid"), "denials are never cached (a 401 carries no Vary)");
        Matcher key = Pattern.compile("proxy_cache_key\\s+\"([^\"]+)\";").matcher(auth);
        assertTrue(key.find(), auth);
        for (String part : new String[] {"$host$request_uri", "$cookie_JSESSIONID", "$http_authorization",
                "$cookie_remember_me"}) {
            assertTrue(key.group(1).contains(part), "cache key without " + part + ": " + key.group(1));
        }
        Matcher ignore = Pattern.compile("proxy_ignore_headers\\s+([^;]+);").matcher(auth);
        assertTrue(ignore.find(), auth);
        String ignored = ignore.group(1);
        assertTrue(ignored.contains("X-Accel-Redirect") && ignored.contains("Cache-Control"), ignored);
        assertFalse(ignored.contains("Set-Cookie"), "a cached Set-Cookie is replayed to everybody");
        assertFalse(ignored.contains("Vary"), "Vary is the safety net of the key");
        assertFalse(ignored.contains("X-Accel-Expires"), "X-Accel-Expires is the TTL");
        assertFalse(auth.contains("proxy_cache_valid 200") || auth.matches("(?s).*proxy_cache_valid\\s+(any|200).*"),
                "an allow must only be cached as long as X-Accel-Expires says");
        // proxy_cache appears only in the auth location (never where X-Accel-Redirect is followed)
        assertEquals(1, count(conf, "\\bproxy_cache\\s"), "proxy_cache outside the auth location");
        String pub = block(conf, "location ^~ ${PUBLIC_PREFIX} {");
        assertHas(pub, "auth_request\\s+/_xaccel_auth;");
        // the file is the one the application named (its X-Accel-Raw-Path), never this request's own $uri
        assertHas(pub, "auth_request_set\\s+\\$xaccel_raw\\s+\\$upstream_http_x_accel_raw_path;");
        assertHas(pub, "try_files\\s+\\S+\\s+/_xaccel_cached\\$xaccel_raw;");
        assertFalse(pub.contains("alias") || pub.contains("root "), "the public location serves no file itself");
        String jump = block(conf, "location ^~ /_xaccel_cached/_xaccel/media/ {");
        assertHas(jump, "\\binternal;");
        assertHas(jump, "alias\\s+\\$\\{MEDIA_ROOT}/;");
        assertHas(jump, "max_ranges\\s+1;");
        assertHas(jump, "if \\(\\$uri != \"/_xaccel_cached\\$xaccel_raw\"\\)\\s*\\{\\s*return 418;\\s*}");
        assertHas(block(conf, "location = /_xaccel_cached {"), "\\binternal;");
        assertHas(block(conf, "location ^~ /_xaccel/media/ {"), "\\binternal;");
        assertHas(conf, "proxy_cache_path\\s+tmp/");
    }

    @Test
    void signedLinkLocationsUseTheDocumentedFormulaAndNoLiteralSecret() throws IOException {
        String conf = directives(SignedLinksIT.TEMPLATE);
        String plain = block(conf, "location ^~ /s/media/ {");
        assertHas(plain, "secure_link\\s+\\$arg_md5,\\$arg_expires;");
        assertHas(plain, "secure_link_md5\\s+\"\\$secure_link_expires\\$uri \\$\\{LINK_SECRET}\";");
        assertHas(plain, "if \\(\\$secure_link = \"\"\\)\\s*\\{\\s*return 403;\\s*}");
        assertHas(plain, "if \\(\\$secure_link = \"0\"\\)\\s*\\{\\s*return 410;\\s*}");
        assertHas(plain, "alias\\s+\\$\\{MEDIA_ROOT}/;");
        String bound = block(conf, "location ^~ /sb/media/ {");
        assertHas(bound,
                "secure_link_md5\\s+\"\\$secure_link_expires\\$uri\\|\\$cookie_JSESSIONID \\$\\{LINK_SECRET}\";");
        assertEquals(2, count(conf, "secure_link_md5"));
        assertEquals(2, count(conf, "\\$\\{LINK_SECRET}"), "the secret only in secure_link_md5");
    }

    private static int count(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
