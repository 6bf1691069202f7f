package dev.xaccel.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.nginx.DocsNginx;
import dev.xaccel.testsupport.nginx.NginxConfigLint;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The shipped scale-out template keeps the boundary rules of every shipped config ({@link NginxConfigLint}) and
 * the retry rules ScaleOutIT relies on: failed idempotent requests go to the next node (error, timeout, 502, 503),
 * a bounded number of times, a failed node leaves the rotation, and nothing makes nginx retry a POST.
 */
class ScaleOutTemplateTest {

    @Test
    void keepsTheBoundaryRules() throws Exception {
        assertEquals(List.of(), NginxConfigLint.problems(DocsNginx.text(ScaleOutIT.TEMPLATE)));
    }

    @Test
    void retriesIdempotentRequestsOnTheNextNodeOnly() throws Exception {
        String conf = withoutComments(DocsNginx.text(ScaleOutIT.TEMPLATE));
        assertTrue(conf.matches("(?s).*\\n    proxy_next_upstream +error timeout http_502 http_503;.*"), conf);
        assertTrue(Pattern.compile("\\n    proxy_next_upstream_tries +[2-9];").matcher(conf).find());
        assertEquals(3, Pattern.compile("server +\\$\\{NODE_\\d\\} +max_fails=1 +fail_timeout=\\d+s;")
                .matcher(conf).results().count());
        assertTrue(conf.contains("keepalive"));
        assertFalse(conf.contains("non_idempotent"), "nginx must never retry a non-idempotent request");
        assertFalse(Pattern.compile("location[^{]*\\{[^}]*proxy_next_upstream").matcher(conf).find(),
                "a location's own proxy_next_upstream would replace the http-level rule");
    }

    private static String withoutComments(String conf) {
        return conf.replaceAll("(?m)#.*$", "");
    }
}
