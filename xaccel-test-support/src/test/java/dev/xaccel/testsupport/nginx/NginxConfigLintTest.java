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
}
