package dev.xaccel.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.nginx.NginxConfigLint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo's nginx config keeps the structural rules of the boundary ({@link NginxConfigLint}): in particular no
 * location serves a file chosen by nginx's own reading of the request (the /library/ cover location once served
 * {@code alias LIBRARY/$capture} after Tomcat had allowed {@code $request_uri}, which Tomcat reads differently).
 * The behaviour through the running config is SampleBoundaryIT's.
 */
class DemoNginxConfTest {

    @Test
    void keepsTheBoundaryRules() throws Exception {
        String conf = Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
        assertEquals(List.of(), NginxConfigLint.problems(conf));
    }

    @Test
    void theCachedCoverLocationServesTheFileTomcatNamed() throws Exception {
        String conf = Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
        NginxConfigLint.Location cover = NginxConfigLint.locations(conf).stream()
                .filter(l -> l.match().startsWith("~* \"^/library/")).findFirst().orElseThrow();
        assertTrue(cover.body().contains("try_files         /.xaccel-never-a-file  /_xaccel_cached$xaccel_raw;"),
                cover.body());
        assertTrue(cover.body().contains("$upstream_http_x_accel_raw_path"), cover.body());
        NginxConfigLint.Location target = NginxConfigLint.locations(conf).stream()
                .filter(l -> l.match().equals("^~ /_xaccel_cached/_xaccel/library/")).findFirst().orElseThrow();
        assertTrue(target.body().contains("if ($uri != \"/_xaccel_cached$xaccel_raw\")"), target.body());
    }
}
