package dev.xaccel.spring.boot.autoconfigure;

import org.apache.coyote.ProtocolHandler;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The one place the shared tests name Spring Boot 4's embedded Tomcat classes; xaccel-spring-boot3-autoconfigure's
 * tests compile the shared tests with their own {@code EmbeddedTomcat} in Boot 3's packages instead of this one.
 */
final class EmbeddedTomcat {

    /** Spring Boot 4 runs Tomcat 11, where the connector sends checked files with sendfile (docs/connector.md). */
    static final boolean CHECKED_FILE_SENDFILE = true;

    private EmbeddedTomcat() {
    }

    static ProtocolHandler protocol(ConfigurableApplicationContext ctx) {
        TomcatWebServer server = (TomcatWebServer) ((ServletWebServerApplicationContext) ctx).getWebServer();
        return server.getTomcat().getConnector().getProtocolHandler();
    }
}
