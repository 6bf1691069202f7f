package dev.xaccel.it.openliberty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * What Liberty does with a filter whose init-params are wrong, with {@code invokeFilterInitAtStartup}: it calls
 * {@code init} when the application starts and logs the error naming the parameter (SRVE0321E), but starts the
 * application anyway (unlike WildFly with {@code eager-filter-initialization}, where the deployment fails:
 * the suite's {@code EagerInitIT}); requests then get Liberty's 500, never a file.
 */
class FilterStartIT {

    @Test
    void aMisconfiguredFilterIsReportedAtStartAndRequestsAreRefused() throws Exception {
        OpenLibertyContainer container = (OpenLibertyContainer) new OpenLibertyContainer.Factory()
                .create("badfilter", false);
        try {
            int port = container.start(SuiteApp.app(new BearerAuthFilter()).xaccelFilter(Map.of("offload",
                    "sometimes")));
            String log = Files.readString(container.log(), StandardCharsets.UTF_8);
            assertTrue(log.contains("SRVE0321E: The [xaccel] filter did not load during start up"), log);
            assertTrue(log.contains("Invalid value [sometimes] for init-param [offload]"), log);
            RawHttp.Response r = SuiteApp.authGet("/library/small.txt").send(port);
            assertEquals(500, r.status(), r.toString());
            String body = new String(r.body(), StandardCharsets.ISO_8859_1);
            // Liberty's own page: "Error 500: jakarta.servlet.ServletException: Filter [xaccel]: could not be
            // initialized" (measured), no path, no stack frame, no parameter value
            assertTrue(body.contains("Filter [xaccel]: could not be initialized"), body);
            assertFalse(body.contains(TestPaths.target().toString()) || body.contains("at dev.")
                    || body.contains("sometimes"), body);
        } finally {
            container.close();
        }
    }
}
