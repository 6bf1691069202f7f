package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.fs.SymlinkSwapper;
import dev.xaccel.testsupport.nginx.NginxServer;
import dev.xaccel.testsupport.tomcat.EmbeddedTomcat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The attack of a writer inside a data root, against real nginx (docs/nginx/xaccel.conf.template and the
 * cached-decision template, as shipped) and Tomcat: the directory {@code swap/} and a link {@code swap-link} to a
 * directory outside the root are exchanged atomically in a loop while {@code swap/file.bin} is requested hundreds
 * of times, in mapped and declared mode, through nginx (offloaded) and directly from Tomcat, under both
 * {@code symlinks} policies. No response may carry a byte of the file outside; some requests must succeed
 * (otherwise the race was never run).
 */
class SymlinkSwapIT {

    static final int REQUESTS = 300;
    static final byte[] INSIDE = repeat("inside-the-root-", 4096);
    static final byte[] OUTSIDE = repeat("SECRET-OUTSIDE-", 4096);

    static final Map<String, Stack> STACKS = new LinkedHashMap<>();

    /** One policy's world: its media tree, Tomcat, and nginx with the plain and the cached template. */
    record Stack(Path media, EmbeddedTomcat tomcat, NginxServer plain, NginxServer cached) implements AutoCloseable {
        @Override
        public void close() {
            try {
                plain.close();
                cached.close();
            } finally {
                tomcat.close();
            }
        }
    }

    @BeforeAll
    static void start() throws Exception {
        for (String policy : new String[] {"within-root", "never"}) {
            Path dir = TestPaths.freshDir("e2e-swap-" + policy);
            Path media = Files.createDirectories(dir.resolve("media")).toRealPath();
            Files.createDirectories(media.resolve("swap"));
            Files.write(media.resolve("swap/file.bin"), INSIDE);
            Path outside = Files.createDirectories(dir.resolve("outside"));
            Files.write(outside.resolve("file.bin"), OUTSIDE);
            Files.createSymbolicLink(media.resolve("swap-link"), outside);
            Map<String, String> params = new LinkedHashMap<>();
            params.put("locations", media + "/ => /_xaccel/media/ expires=60");
            params.put("mappings", "/library/ => " + media + "/");
            params.put("symlinks", policy);
            params.put("jmxName", "none");
            EmbeddedTomcat tomcat = E2eStack.tomcat("swap-" + policy, E2eStack.app(new BearerAuthFilter())
                    .xaccelFilter(params)
                    .servlet("/files/*", new DeclaredFileServlet(media)));
            NginxServer plain = DocsNginx.start("swap-" + policy, tomcat.port(), media);
            NginxServer cached = DocsNginx.start("swap-cached-" + policy, DocsNginx.text(CachedAuthIT.CACHED_TEMPLATE),
                    Map.of("PUBLIC_PREFIX", "/library/"), tomcat.port(), media);
            STACKS.put(policy, new Stack(media, tomcat, plain, cached));
        }
    }

    @AfterAll
    static void stop() {
        STACKS.values().forEach(Stack::close);
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "within-root, nginx,  /library/swap/file.bin",
        "within-root, nginx,  /files/swap/file.bin",
        "within-root, cached, /library/swap/file.bin",
        "within-root, tomcat, /library/swap/file.bin",
        "within-root, tomcat, /files/swap/file.bin",
        "never,       nginx,  /library/swap/file.bin",
        "never,       cached, /library/swap/file.bin",
        "never,       tomcat, /library/swap/file.bin",
        "never,       tomcat, /files/swap/file.bin",
    })
    void noByteFromOutsideWhileADirectoryAndALinkAreSwapped(String policy, String via, String target)
            throws Exception {
        Stack stack = STACKS.get(policy);
        int port = switch (via) {
            case "nginx" -> stack.plain().port();
            case "cached" -> stack.cached().port();
            default -> stack.tomcat().port();
        };
        byte[] probe = java.util.Arrays.copyOfRange(OUTSIDE, 1000, 1032);
        Map<Integer, Integer> statuses = new TreeMap<>();
        int leaks = 0;
        int inside = 0;
        long swaps;
        try (SymlinkSwapper swapper = SymlinkSwapper.start(stack.media().resolve("swap"),
                stack.media().resolve("swap-link"))) {
            for (int i = 0; i < REQUESTS; i++) {
                // a fresh query each time, so that no cached decision hides the race
                RawHttp.Response r = RawHttp.get(target + "?n=" + i)
                        .header("Authorization", BearerAuthFilter.AUTHORIZATION).send(port);
                statuses.merge(r.status(), 1, Integer::sum);
                if (RawHttp.indexOf(r.raw(), probe, 0) >= 0) {
                    leaks++;
                }
                if (r.status() == 200 && java.util.Arrays.equals(INSIDE, r.body())) {
                    inside++;
                }
            }
            swaps = swapper.swaps();
        }
        String summary = via + " " + target + " (symlinks=" + policy + "): " + statuses + ", " + swaps
                + " swaps, " + inside + " served from inside, " + leaks + " carried the file outside";
        System.out.println(summary); // the figures of the race, in target/failsafe-reports/*-output.txt
        assertEquals(0, leaks, summary);
        assertTrue(inside > 0, "the race never let a request through, so it proved nothing: " + summary);
        assertTrue(swaps > REQUESTS, summary);
    }

    static byte[] repeat(String s, int times) {
        return s.repeat(times).getBytes(StandardCharsets.US_ASCII);
    }
}
