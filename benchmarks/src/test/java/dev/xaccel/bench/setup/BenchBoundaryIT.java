package dev.xaccel.bench.setup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.StoreAccount;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.Processes;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Caller;
import dev.xaccel.testsupport.boundary.BoundaryCheck.Secret;
import dev.xaccel.testsupport.boundary.BoundaryCheck;
import dev.xaccel.testsupport.boundary.BoundaryCorpus;
import dev.xaccel.testsupport.nginx.NginxConfigLint;
import dev.xaccel.testsupport.nginx.NginxServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The differential test of the trust boundary for the benchmark's own configuration: the BenchServer JVM and nginx
 * started exactly as {@code benchmarks/run} starts them ({@link TomcatServer}, {@link BenchNginx}, so the nginx.conf
 * is {@link BenchNginxConf#render}'s), protected data files of unique content, a file outside the data root and a
 * symbolic link in the root that points at it. The corpus of {@link BoundaryCorpus} (path parameters, encoded
 * separators and dots, backslashes, overlong UTF-8, ...) starts under every location of the servers of setups 2, 3,
 * 6 and 7 (internal ones too, and a valid signed link of setup 7) and aims at a data file under every setup's
 * prefix and the internal prefixes, at the link, and by {@code ..} at the file outside the root. Sent anonymously,
 * with a wrong token and with the valid one: nobody without the token gets a byte of a data file (the bench's auth
 * is one bearer token, with it every data file is readable), and nobody at all gets a byte of the file outside.
 * <p>
 * <b>Setups 4 and 8 are not in the oracle</b>: nginx static and nginx static confined serve the data root without
 * any authentication by design, since they measure what nginx alone can do on this machine (the limit the other
 * setups are compared with), and, like every server of the benchmark, listen on 127.0.0.1 only. For the same
 * reason they are the only, explicitly listed, exceptions to {@link NginxConfigLint}. What they are checked for is
 * the one line that tells them apart: static follows the link out of the root, confined does not.
 */
class BenchBoundaryIT {

    private static final Path TEMPLATES = Path.of(System.getProperty("xaccel.nginx.templates", "../docs/nginx"));
    private static final String TOKEN = "bench-boundary-it-token-0123456789";
    private static final String LINK_SECRET = "bench-boundary-it-secret-0123456789-abcdefghij";
    /** Protected by the token in every setup but 7, where {@link #signedLink} opens it for anyone. */
    private static final String LINKED = "small-000.bin";
    /** Protected by the token, and the file every goal aims at. */
    private static final String PROTECTED = "small-001.bin";
    /** A symbolic link in the data root to {@link #OUTSIDE}. */
    private static final String ESCAPE = "escape.bin";
    /** Next to the data root: {@code <data root>/../outside/canary.txt}. */
    private static final String OUTSIDE = "outside/canary.txt";
    /** The setups in the oracle. */
    private static final List<Setup> AUTHENTICATED = List.of(Setup.PROXIED, Setup.XACCEL, Setup.CACHED,
            Setup.SIGNED, Setup.UDS);
    /** The setups of the benchmark's nginx. */
    private static final List<Setup> NGINX_SETUPS = List.of(Setup.PROXIED, Setup.XACCEL, Setup.STATIC, Setup.CACHED,
            Setup.SIGNED, Setup.CONFINED, Setup.BARE, Setup.UDS, Setup.REMOTE_OFFLOAD);

    private static final List<Caller> CALLERS = List.of(Caller.anonymous(),
            new Caller("wrong token", Map.of("Authorization", "Bearer " + TOKEN.substring(1))),
            new Caller("token", Map.of("Authorization", "Bearer " + TOKEN)));

    @TempDir
    static Path dir;
    static Processes processes;
    static BenchNginx nginx;
    static Endpoints endpoints;
    static String conf;
    static Path data;
    static Map<String, byte[]> contents;
    static String signedLink;

    @BeforeAll
    static void start() throws Exception {
        NginxServer.findBinary(); // the boundary test of the benchmark needs a real nginx: says how to install it
        data = Files.createDirectories(dir.resolve("data")).toRealPath();
        contents = Map.of(LINKED, write(data.resolve(LINKED)), PROTECTED, write(data.resolve(PROTECTED)),
                OUTSIDE, write(data.resolveSibling(OUTSIDE)));
        Files.createSymbolicLink(data.resolve(ESCAPE), Path.of("..", OUTSIDE));
        Path work = Files.createDirectories(dir.resolve("work"));
        Path links = work.resolve("signed-links.txt");
        processes = new Processes();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path logging = Path.of("src/main/resources/bench-logging.properties").toAbsolutePath();
        CpuPinning off = CpuPinning.off("the boundary test measures nothing");
        // the two JVMs of a run, as BenchDriver starts them: the hop's servers reach the hop's
        TomcatServer tomcat = TomcatServer.start(processes, new TomcatServer.Launch(TomcatServer.Role.APPLICATION,
                java, List.of("-Xmx128m"), System.getProperty("java.class.path"), logging, data, work, TOKEN,
                LINK_SECRET, links, null, 30, null, off));
        TomcatServer hop = TomcatServer.start(processes, new TomcatServer.Launch(TomcatServer.Role.HOP, java,
                List.of("-Xmx128m"), System.getProperty("java.class.path"), logging, data, work, TOKEN, LINK_SECRET,
                null, null, 30, null, off));
        nginx = BenchNginx.start(processes, new BenchNginx.Launch(TEMPLATES, work.resolve("nginx"), tomcat.port(),
                hop.port(), data, LINK_SECRET, 0, hop.receiptsFile(), off));
        endpoints = new Endpoints(tomcat.port(), tomcat.directPort(), nginx.ports(), links);
        conf = Files.readString(nginx.conf(), StandardCharsets.UTF_8);
        signedLink = Files.readAllLines(links).stream().filter(l -> l.contains("/" + LINKED + "?")).findFirst()
                .orElseThrow();
    }

    private static byte[] write(Path file) throws Exception {
        byte[] content = BoundaryCheck.uniqueContent(file.getFileName().toString(), 20_000);
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        return content;
    }

    @AfterAll
    static void stop() {
        if (processes != null) {
            processes.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = Setup.class, names = {"PROXIED", "XACCEL", "CACHED", "SIGNED", "UDS"})
    void nobodyWithoutTheTokenGetsAByteOfADataFileAndNobodyOneFromOutsideTheRoot(Setup setup) throws Exception {
        int port = port(setup);
        RawHttp.Response works = setup == Setup.SIGNED ? RawHttp.get(signedLink).send(port)
                : RawHttp.get(path(setup) + "/" + PROTECTED).header("Authorization", "Bearer " + TOKEN).send(port);
        assertEquals(200, works.status(), works.toString());
        assertArrayEquals(contents.get(setup == Setup.SIGNED ? LINKED : PROTECTED), works.body());

        List<String> targets = BoundaryCorpus.targets(starts(setup), goals());
        BoundaryCheck.Result result = BoundaryCheck.run(port, targets, CALLERS, secrets(setup));
        System.out.println("BenchBoundaryIT setup " + setup.id() + ": " + result.summary(0));
        assertTrue(result.findings().isEmpty(), setup.id() + ": " + result.summary(20));
        assertTrue(result.serverErrors().isEmpty(), setup.id() + ": " + result.summary(20));
    }

    /**
     * The remote setups' server (setup 3's {@code location /} and the remote template's locations; here without a
     * store, so its {@code /store/} rewrite answers 502, and without the {@code /remote} context): the same attack,
     * no finding, and no 5xx but that store's 502.
     */
    @Test
    void theRemoteSetupsServerGivesNobodyAByteOfADataFile() throws Exception {
        List<String> targets = BoundaryCorpus.targets(starts(Setup.REMOTE_OFFLOAD), goals());
        BoundaryCheck.Result result = BoundaryCheck.run(port(Setup.REMOTE_OFFLOAD), targets, CALLERS,
                secrets(Setup.REMOTE_OFFLOAD));
        System.out.println("BenchBoundaryIT remote setups' server: " + result.summary(0));
        assertTrue(result.findings().isEmpty(), result.summary(20));
        assertTrue(result.serverErrors().stream().allMatch(e -> e.status() == 502), result.summary(20));
    }

    @Test
    void staticFollowsTheLinkOutOfTheRootAndConfinedDoesNot() {
        RawHttp.Response followed = RawHttp.get(path(Setup.STATIC) + "/" + ESCAPE).send(port(Setup.STATIC));
        assertEquals(200, followed.status(), followed.toString());
        assertArrayEquals(contents.get(OUTSIDE), followed.body());
        RawHttp.Response refused = RawHttp.get(path(Setup.CONFINED) + "/" + ESCAPE).send(port(Setup.CONFINED));
        assertEquals(403, refused.status(), refused.toString());
        RawHttp.Response served = RawHttp.get(path(Setup.CONFINED) + "/" + PROTECTED).send(port(Setup.CONFINED));
        assertArrayEquals(contents.get(PROTECTED), served.body());
    }

    @Test
    void theConfigNginxRunsKeepsTheBoundaryRulesButInTheUnauthenticatedSetups4And8() {
        String serves = "location /files/: serves files but is neither internal nor signed";
        String noNosniff = "location /files/: no add_header X-Content-Type-Options nosniff always";
        String noCsp = "location /files/: no sandboxing add_header Content-Security-Policy ... always";
        List<String> setups4And8 = List.of(
                serves, "location /files/: no disable_symlinks on from=" + data, noNosniff, noCsp,  // (4) static
                serves, noNosniff, noCsp);                                                         // (8) confined
        assertEquals(setups4And8, NginxConfigLint.problems(conf));
        // ... and "location /files/" is theirs alone
        assertEquals(List.of(Setup.STATIC, Setup.CONFINED), NGINX_SETUPS.stream().filter(s -> ServerBlocks
                .locations(conf, port(s)).stream().anyMatch(l -> l.match().equals("/files/"))).toList());
    }

    /** Every location of the setup's server as a URL (a file below a prefix), its file, and its signed link. */
    private static List<String> starts(Setup setup) {
        Set<String> starts = new LinkedHashSet<>();
        starts.add(path(setup) + "/" + LINKED);
        for (NginxConfigLint.Location l : ServerBlocks.locations(conf, port(setup))) {
            String uri = l.match().replaceFirst("^(\\^~|=)\\s*", "");
            if (uri.startsWith("~") && uri.contains("^/_xaccel/remote/")) {
                // the remote setups' internal location (no store runs here: the unused address of BenchRemoteConf)
                starts.add("/_xaccel/remote/http/" + BenchRemoteConf.server(0) + "/" + StoreAccount.BUCKET + "/"
                        + LINKED);
                continue;
            }
            if (uri.startsWith("~")) {
                throw new AssertionError("a regex location (" + l.match() + "): give it a start here");
            }
            if (!uri.startsWith("@")) { // a named location has no URL
                starts.add(uri.endsWith("/") && uri.length() > 1 ? uri + LINKED : uri);
            }
        }
        if (setup == Setup.SIGNED) {
            starts.add(signedLink);
        }
        return List.copyOf(starts);
    }

    /**
     * Below every setup's prefix (the servers that proxy {@code location /} reach every Tomcat context) and every
     * file location of the servers under test (the internal prefixes): the protected file, the link, and the file
     * outside the root by {@code ..}.
     */
    private static List<String> goals() {
        Set<String> prefixes = new LinkedHashSet<>();
        for (Setup s : Setup.values()) {
            prefixes.add(path(s) + "/");
        }
        for (Setup s : AUTHENTICATED) {
            for (NginxConfigLint.Location l : ServerBlocks.fileLocations(conf, port(s))) {
                prefixes.add(l.match().replaceFirst("^(\\^~|=)\\s*", ""));
            }
        }
        List<String> goals = new ArrayList<>();
        for (String p : prefixes) {
            goals.addAll(List.of(p + PROTECTED, p + ESCAPE, p + "../" + OUTSIDE));
        }
        return goals;
    }

    /** The data files for the token only (setup 7: the linked one for anyone with the link), the outside for none. */
    private static List<Secret> secrets(Setup setup) {
        List<Secret> secrets = new ArrayList<>();
        secrets.add(new Secret("data file " + PROTECTED, contents.get(PROTECTED), Set.of("token")));
        if (setup != Setup.SIGNED) {
            secrets.add(new Secret("data file " + LINKED, contents.get(LINKED), Set.of("token")));
        }
        secrets.add(new Secret("the file outside the data root", contents.get(OUTSIDE), Set.of()));
        return secrets;
    }

    private static int port(Setup s) {
        return URI.create(endpoints.base(s)).getPort();
    }

    private static String path(Setup s) {
        return URI.create(endpoints.base(s)).getPath();
    }
}
