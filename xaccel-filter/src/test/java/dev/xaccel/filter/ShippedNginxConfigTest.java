package dev.xaccel.filter;

import dev.xaccel.testsupport.nginx.DocsNginx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import dev.xaccel.testsupport.nginx.NginxConfigLint;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every nginx config under docs/nginx/ keeps the structural rules of the boundary ({@link NginxConfigLint}). */
class ShippedNginxConfigTest {

    /** The remote-object config (docs/remote.md). */
    static final String REMOTE_TEMPLATE = "docs/nginx/xaccel-remote.conf.template";

    @ParameterizedTest
    @ValueSource(strings = {DocsNginx.TEMPLATE, DocsNginx.CACHED_TEMPLATE, SignedLinksIT.TEMPLATE,
            ShippedNginxConfigTest.REMOTE_TEMPLATE, UnixSocketOffloadIT.TEMPLATE})
    void keepsTheBoundaryRules(String template) throws Exception {
        String text = DocsNginx.text(template);
        assertEquals(List.of(), NginxConfigLint.problems(text), template);
    }
}
