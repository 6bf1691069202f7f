package dev.xaccel.filter;

import dev.xaccel.testsupport.nginx.DocsNginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import dev.xaccel.testsupport.nginx.NginxConfigLint;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every nginx config under docs/nginx/ keeps the structural rules of the boundary ({@link NginxConfigLint}). */
class ShippedNginxConfigTest {

    /** The remote-object config (docs/remote.md). */
    static final String REMOTE_TEMPLATE = "docs/nginx/xaccel-remote.conf.template";

    @ParameterizedTest
    @ValueSource(strings = {DocsNginx.TEMPLATE, DocsNginx.CACHED_TEMPLATE, SignedLinksIT.TEMPLATE,
            ShippedNginxConfigTest.REMOTE_TEMPLATE, UnixSocketOffloadIT.TEMPLATE, DocsNginx.TLS_TEMPLATE})
    void keepsTheBoundaryRules(String template) throws Exception {
        String text = DocsNginx.text(template);
        assertEquals(List.of(), NginxConfigLint.problems(text), template);
    }

    /**
     * The TLS variant is the shipped template with its listen line made TLS and nothing else: a change to one that
     * is not made to the other fails here.
     */
    @Test
    void theTlsTemplateIsTheShippedOneButForItsListener() throws Exception {
        String plain = DocsNginx.text(DocsNginx.TEMPLATE);
        String tls = DocsNginx.text(DocsNginx.TLS_TEMPLATE);
        String tlsLines = """
                        listen       127.0.0.1:${NGINX_PORT} ssl http2;
                        ssl_certificate      ${TLS_CERT};
                        ssl_certificate_key  ${TLS_KEY};
                        ssl_protocols        TLSv1.2 TLSv1.3;
                """;
        assertTrue(tls.contains(tlsLines), "the TLS lines of " + DocsNginx.TLS_TEMPLATE);
        String asPlain = tls.replace(tlsLines, "        listen       127.0.0.1:${NGINX_PORT};\n");
        assertEquals(body(plain), body(asPlain), "below the header comment, but for the listen line");
    }

    /** The config from its first directive on (the header comments differ). */
    private static String body(String template) {
        return template.substring(template.indexOf("\nworker_processes"));
    }
}
