package dev.xaccel.filter;

import dev.xaccel.testsupport.nginx.DocsNginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.TemplateRenderer;
import java.io.IOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Guards the documented nginx snippet (docs/nginx/xaccel.conf.template) that the e2e suites run. */
class NginxTemplateTest {

    private static String template() throws IOException {
        return DocsNginx.text(DocsNginx.TEMPLATE);
    }

    /** The directives only, comments removed. */
    private static String directives() throws IOException {
        return template().replaceAll("(?m)#.*$", "");
    }

    private static String block(String text, String header) {
        int start = text.indexOf(header);
        assertTrue(start >= 0, "no block " + header);
        int depth = 0;
        for (int i = text.indexOf('{', start); i < text.length(); i++) {
            if (text.charAt(i) == '{') {
                depth++;
            } else if (text.charAt(i) == '}' && --depth == 0) {
                return text.substring(start, i + 1);
            }
        }
        throw new AssertionError("unterminated block " + header);
    }

    @Test
    void internalLocationIsNarrowPrefixOnlyAndInternal() throws IOException {
        String conf = directives();
        String internal = block(conf, "location ^~ /_xaccel/media/ {");
        assertTrue(internal.matches("(?s).*\\binternal;.*"), internal);
        assertTrue(internal.matches("(?s).*\\balias\\s+\\$\\{MEDIA_ROOT}/;.*"), internal);
        assertFalse(conf.matches("(?s).*\\balias\\s+/;.*"), "never alias /");
        Matcher aliases = Pattern.compile("\\balias\\s+(\\S+);").matcher(conf);
        while (aliases.find()) {
            assertTrue(aliases.group(1).endsWith("/"), "alias without trailing slash: " + aliases.group());
        }
        Matcher locations = Pattern.compile("\\blocation\\s+([^{]*)\\{").matcher(conf);
        while (locations.find()) {
            String loc = locations.group(1).trim();
            assertFalse(loc.startsWith("~"), "regex locations can take URIs from the internal one: " + loc);
            assertTrue(loc.endsWith("/"), "location without trailing slash: " + loc);
        }
    }

    @Test
    void appLocationSetsEveryProxyHeaderAndKeepsUpstreamConnections() throws IOException {
        String conf = directives();
        String app = block(conf, "location / {");
        for (String d : new String[] {"proxy_pass\\s+http://xaccel_app;", "proxy_http_version\\s+1\\.1;",
                "proxy_set_header\\s+Connection\\s+\"\";", "proxy_set_header\\s+Host\\s+\\$host;",
                "proxy_set_header\\s+X-Forwarded-For\\s+\\$proxy_add_x_forwarded_for;",
                "proxy_set_header\\s+X-Forwarded-Proto\\s+\\$scheme;",
                "proxy_set_header\\s+X-Sendfile-Type\\s+X-Accel-Redirect;"}) {
            assertTrue(Pattern.compile(d).matcher(app).find(), "missing in location /: " + d);
        }
        String upstream = block(conf, "upstream xaccel_app {");
        assertTrue(upstream.contains("server     127.0.0.1:${TOMCAT_PORT};"), upstream);
        assertTrue(Pattern.compile("\\bkeepalive\\s+\\d+;").matcher(upstream).find(), upstream);
        assertTrue(Pattern.compile("\\bsendfile\\s+on;").matcher(conf).find());
        assertTrue(Pattern.compile("\\btcp_nopush\\s+off;").matcher(conf).find());
        assertTrue(conf.contains("listen       127.0.0.1:${NGINX_PORT};"));
    }

    @Test
    void everythingNginxWritesStaysUnderThePrefix() throws IOException {
        String conf = directives();
        for (String d : new String[] {"pid", "error_log", "access_log", "client_body_temp_path",
                "proxy_temp_path", "fastcgi_temp_path", "uwsgi_temp_path", "scgi_temp_path"}) {
            Matcher m = Pattern.compile("(?m)^\\s*" + d + "\\s+(\\S+)").matcher(conf);
            assertTrue(m.find(), "missing " + d);
            assertFalse(m.group(1).startsWith("/"), d + " must be relative to the prefix: " + m.group(1));
        }
        assertTrue(conf.contains("$status") && conf.contains("$uri") && conf.contains("$upstream_response_length"));
    }

    @Test
    void renderingReplacesOnlyKnownPlaceholdersAndKeepsNginxVariables() throws IOException {
        Map<String, String> values = Map.of("PREFIX", "/p", "NGINX_PORT", "1", "TOMCAT_PORT", "2",
                "MEDIA_ROOT", "/srv/media");
        String rendered = TemplateRenderer.render(template(), values);
        assertFalse(rendered.contains("${"), "unrendered placeholder");
        assertTrue(Pattern.compile("alias\\s+/srv/media/;").matcher(rendered).find(), rendered);
        assertTrue(Pattern.compile("disable_symlinks\\s+on from=/srv/media;").matcher(rendered).find(), rendered);
        assertTrue(rendered.contains("$proxy_add_x_forwarded_for"));
        assertEquals("a b", TemplateRenderer.render("a ${X}", Map.of("X", "b")));
        assertThrows(IllegalArgumentException.class, () -> TemplateRenderer.render("${UNKNOWN}", Map.of()));
    }
}
