package dev.xaccel.it.glassfish7;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.xaccel.suite.DeliveryStack;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.nginx.NginxFrontEnd;
import dev.xaccel.testsupport.servlet.AdminDeployedContainer;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.DeployedWar;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * The malformed paths of the traversal corpus on GlassFish's own listener ({@code http-listener}, virtual server
 * {@code server}), where an application deployed without naming a virtual server lands. There GlassFish maps the
 * request itself before the web container and answers 500 when its decoder refuses the path (measured: the suite's
 * listeners, made by {@code create-http-listener}, answer 400 instead; so does this one once it was reconfigured at
 * run time). {@code encoded-slash-enabled=true} on its {@code http} protocol (set at boot, {@link GlassFishContainer})
 * turns the encoded slashes into a 4xx; for a backslash, NUL, overlong UTF-8 or {@code %u} no setting exists (Grizzly
 * refuses them unconditionally), so those stay the server's 500: asserted exactly, with the application never
 * reached and no byte of the canary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DefaultListenerIT {

    private static final String SUITE = "default-listener";

    private final AtomicInteger requests = new AtomicInteger();
    private MediaFixture media;
    private int port;

    @BeforeAll
    void deploy() throws Exception {
        media = MediaFixture.create(SUITE);
        Map<String, String> params = DeliveryStack.baseParams(new NginxFrontEnd.Factory(), media, SUITE);
        Path war = DeployedWar.write(SuiteApp.app(new BearerAuthFilter()).xaccelFilter(params),
                TestPaths.target().resolve("glassfish-apps").resolve(SUITE), AdminDeployedContainer.WAR_FIRST);
        port = GlassFishContainer.deployOnDefaultListener(SUITE, war);
    }

    @AfterAll
    void undeploy() throws Exception {
        GlassFishContainer.undeployFromDefaultListener(SUITE);
    }

    /** Target under the mapped prefix, the status GlassFish's own listener gives it, and whether the app sees it. */
    static Object[][] answers() {
        String lib = SuiteApp.MAPPED_PREFIX;
        return new Object[][] {
            {lib + "small.txt", 200, true},
            // encoded slashes: decoded and normalized thanks to encoded-slash-enabled, then the application's 404
            {lib + "..%2fcanary.txt", 404, true},
            {lib + "%2e%2e%2fcanary.txt", 404, true},
            {lib + "nested/..%2f.hidden-canary", 404, true},
            // no setting: GlassFish's 500
            {lib + "..%5ccanary.txt", 500, false},
            {lib + "..\\canary.txt", 500, false},
            {lib + "%00../canary.txt", 500, false},
            {lib + "%c0%ae%c0%ae/canary.txt", 500, false},
            {lib + "%u002e%u002e/canary.txt", 500, false},
            {lib + "file:" + TestPaths.target().resolve("e2e-" + SUITE + "/outside/canary.txt").toAbsolutePath(), 503,
                false},
        };
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("answers")
    void glassFishsOwnListener(String target, int status, boolean reachesTheApplication) {
        String id = SUITE + "-" + requests.incrementAndGet();
        RawHttp.Response r = SuiteApp.authGet(target).header("X-Request-Id", id).send(port);
        assertEquals(status, r.status(), target + " -> " + r);
        assertEquals(reachesTheApplication, OffloadRecorder.reached(id), target);
        assertFalse(media.leaksCanary(r.raw()), target + " -> " + r);
        assertNull(r.header("X-Accel-Redirect"), r.toString());
    }
}
