package dev.xaccel.spring.boot.autoconfigure;

import org.apache.coyote.ProtocolHandler;
import org.springframework.boot.web.embedded.tomcat.TomcatWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The one place the shared tests name the embedded Tomcat's classes, here in Spring Boot 3's packages (Boot 4's is
 * xaccel-spring-boot-autoconfigure's {@code src/test/boot4}).
 */
final class EmbeddedTomcat {

    /**
     * Spring Boot 3.5 runs Tomcat 10.1, where the connector cannot send checked files with sendfile: it logs one
     * WARNING and leaves it off (docs/connector.md).
     */
    static final boolean CHECKED_FILE_SENDFILE = false;

    private EmbeddedTomcat() {
    }

    static ProtocolHandler protocol(ConfigurableApplicationContext ctx) {
        TomcatWebServer server = (TomcatWebServer) ((ServletWebServerApplicationContext) ctx).getWebServer();
        return server.getTomcat().getConnector().getProtocolHandler();
    }
}
