package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.DeployedWar;
import dev.xaccel.testsupport.servlet.ServerLogLines;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * A filter whose init-params are wrong fails the application's deployment, not its first request: the container
 * initializes the filter when the application starts (WildFly only when told to, see its module; Open Liberty
 * cannot be, see its {@code FilterStartIT}), and the filter's own SEVERE line names the parameter (in this JVM, or
 * in a server's, whose filter lines come back through {@link ServerLogLines}). What the container's exception says
 * is its own: Tomcat names only its log.
 */
class EagerInitIT {

    @Test
    void aMisconfiguredFilterFailsTheDeployment() {
        ServletContainer container = SuiteEnvironment.container().create("eager", false);
        int serverLines = ServerLogLines.lines(DeployedWar.FILTER_LOGGER, 0).size();
        try (LogCapture log = LogCapture.of(DeployedWar.FILTER_LOGGER)) {
            assertThrows(Exception.class, () -> container.start(SuiteApp.app(new BearerAuthFilter())
                    .xaccelFilter(Map.of("offload", "sometimes"))));
            List<String> lines = Stream.concat(log.messages(Level.SEVERE).stream(),
                    ServerLogLines.lines(DeployedWar.FILTER_LOGGER, serverLines).stream()).toList();
            assertTrue(lines.stream().anyMatch(l -> l.contains("did not start") && l.contains("[offload]")
                    && l.contains("[sometimes]")), lines.toString());
        } finally {
            container.close();
        }
    }
}
