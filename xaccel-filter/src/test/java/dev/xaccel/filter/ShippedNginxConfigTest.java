package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;

import dev.xaccel.testsupport.nginx.NginxConfigLint;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every nginx config under docs/nginx/ keeps the structural rules of the boundary ({@link NginxConfigLint}). */
class ShippedNginxConfigTest {

    /** The remote-object config (docs/remote.md). */
    static final String REMOTE_TEMPLATE = "docs/nginx/xaccel-remote.conf.template";

    @ParameterizedTest
    @ValueSource(strings = {NginxServer.TEMPLATE, CachedAuthIT.CACHED_TEMPLATE, SignedLinksIT.TEMPLATE,
            ShippedNginxConfigTest.REMOTE_TEMPLATE})
    void keepsTheBoundaryRules(String template) throws Exception {
        String text = Files.readString(NginxServer.templatePath(template), StandardCharsets.UTF_8);
        assertEquals(List.of(), NginxConfigLint.problems(text), template);
    }
}
