package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * A filter whose init-params are wrong fails the application's deployment, not its first request: the container
 * initializes the filter when the application starts (WildFly and Open Liberty only when told to, see their
 * modules), and the error names the parameter.
 */
class EagerInitIT {

    @Test
    void aMisconfiguredFilterFailsTheDeployment() {
        ServletContainer container = SuiteEnvironment.container().create("eager", false);
        try {
            Exception e = assertThrows(Exception.class, () -> container.start(SuiteApp.app(new BearerAuthFilter())
                    .xaccelFilter(Map.of("offload", "sometimes"))));
            assertTrue(String.valueOf(e.getMessage()).contains("offload"), String.valueOf(e.getMessage()));
        } finally {
            container.close();
        }
    }
}
