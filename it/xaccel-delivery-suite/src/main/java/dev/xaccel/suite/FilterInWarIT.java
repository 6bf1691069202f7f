package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.FilterOrigin;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * In a server that deploys a real WAR ({@code DeployedWar}) the application runs the filter's copy in its
 * {@code WEB-INF/lib}, as a user's WAR does: its class loader loads {@code XAccelFilter} from there
 * ({@link FilterOrigin}), not from the tests' class path (which GlassFish and Payara, in the tests' JVM, also see).
 */
class FilterInWarIT {

    @Test
    void theApplicationLoadsTheFilterFromItsWebInfLib() throws Exception {
        String suite = "filter-in-war";
        MediaFixture media = MediaFixture.create(suite);
        Map<String, String> params = DeliveryStack.baseParams(SuiteEnvironment.frontEnd(), media, suite);
        try (ServletContainer container = SuiteEnvironment.container().create(suite, false)) {
            int port = container.start(SuiteApp.app(new BearerAuthFilter()).xaccelFilter(params)
                    .servlet("/filter-origin", new FilterOrigin()));
            RawHttp.Response r = SuiteApp.authGet("/filter-origin").send(port);
            assertEquals(200, r.status(), r.toString());
            String origin = r.bodyText();
            // WildFly names the jar in its virtual file system (vfs:), the others by its file
            assertTrue(origin.matches("(file|vfs):/.*/WEB-INF/lib/xaccel-filter-[^/]*\\.jar"), origin);
            assertNotEquals(XAccelFilter.class.getProtectionDomain().getCodeSource().getLocation().toString(),
                    origin);
        }
    }
}
