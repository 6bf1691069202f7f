package dev.xaccel.testsupport.nginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class NginxConfigLintTest {

    static final String GOOD = """
            http {
                proxy_buffer_size 16k;
                server {
                    location ^~ /_xaccel/media/ {   # a comment { with a brace
                        internal;
                        disable_symlinks  on from=${MEDIA_ROOT};
                        alias             ${MEDIA_ROOT}/;
                        add_header        X-Content-Type-Options nosniff always;
                        add_header        Content-Security-Policy "default-src 'none'; sandbox" always;
                    }
                }
            }
            """;

    @Test
    void theShippedShapePasses() {
        assertEquals(List.of(), NginxConfigLint.problems(GOOD));
    }

    /** The cover location the security review broke: a public regex location serving its own capture. */
    @Test
    void aLocationServingItsOwnCaptureIsCaught() {
        String bad = GOOD.replace("    }\n}", """
                    location ~* "^/library/(?<cover>[^/]+\\.png)$" {
                        auth_request  /_auth;
                        alias         ${LIBRARY}/$cover;
                    }
                    location = /_auth { proxy_cache_valid 401 403 2s; }
                }
            }""");
        List<String> problems = NginxConfigLint.problems(bad);
        assertTrue(problems.stream().anyMatch(p -> p.contains("chosen by a variable")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("neither internal nor signed")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("no disable_symlinks")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("nosniff")), problems.toString());
        assertTrue(problems.stream().anyMatch(p -> p.contains("proxy_cache_valid")), problems.toString());
    }

    @Test
    void aSmallHeaderBufferIsCaught() {
        assertTrue(NginxConfigLint.problems(GOOD.replace("16k", "4k")).get(0).contains("proxy_buffer_size"));
    }

    /** The remote-object pattern: an internal location proxying to a store the application's redirect names. */
    static final String REMOTE = """
            http {
                proxy_buffer_size 16k;
                map "$r_scheme://$r_host" $r_upstream {
                    default                    "";
                    "http://127.0.0.1:9000"    store;
                }
                upstream store { server 127.0.0.1:9000; }
                server {
                    location ~ ^/_xaccel/remote/(?<r_scheme>https?)/(?<r_host>[^/]+)(?<r_path>/.*)$ {
                        internal;
                        proxy_pass                  $r_scheme://$r_upstream$r_path$is_args$args;
                        proxy_pass_request_headers  off;
                        proxy_ignore_headers        X-Accel-Redirect Set-Cookie;
                        proxy_hide_header           Set-Cookie;
                        proxy_max_temp_file_size    0;
                        proxy_intercept_errors      on;
                        add_header        X-Content-Type-Options nosniff always;
                        add_header        Content-Security-Policy "default-src 'none'; sandbox" always;
                    }
                }
            }
            """;

    @Test
    void theRemotePatternPasses() {
        assertEquals(List.of(), NginxConfigLint.problems(REMOTE));
    }

    @Test
    void aFreeProxyPassIsCaught() {
        assertProblem(REMOTE.replace("$r_scheme://$r_upstream$r_path", "$r_scheme://$r_host$r_path"),
                "is not set by a map");
        assertProblem(REMOTE.replace("$r_scheme://$r_upstream$r_path$is_args$args", "$arg_url"), "open proxy");
    }

    @Test
    void aMapToSomethingElseThanUpstreamsIsCaught() {
        assertProblem(REMOTE.replace("default                    \"\";", "default $r_host;"), "has the default");
        assertProblem(REMOTE.replace("    store;", "    127.0.0.1:9000;"), "which is no upstream");
    }

    @Test
    void eachRuleOfARemoteLocationIsChecked() {
        assertProblem(REMOTE.replace("internal;", ""), "is not internal");
        assertProblem(REMOTE.replace("proxy_pass_request_headers  off;", ""), "Authorization and Cookie");
        assertProblem(REMOTE.replace("X-Accel-Redirect ", ""), "redirect nginx again");
        assertProblem(REMOTE.replace("proxy_hide_header           Set-Cookie;", ""), "Set-Cookie");
        assertProblem(REMOTE.replace("proxy_max_temp_file_size    0;", ""), "temp files");
        assertProblem(REMOTE.replace("proxy_intercept_errors      on;", ""), "error bodies");
        assertProblem(REMOTE.replace("nosniff", "sniff"), "nosniff");
    }

    @Test
    void theApplicationsLiteralUpstreamIsNoRemote() {
        assertEquals(List.of(), NginxConfigLint.problems(GOOD.replace("location ^~",
                "location / { proxy_pass http://app$request_uri; }\n        location ^~")));
    }

    private static void assertProblem(String config, String expected) {
        List<String> problems = NginxConfigLint.problems(config);
        assertTrue(problems.stream().anyMatch(p -> p.contains(expected)), expected + " not in " + problems);
    }
}
