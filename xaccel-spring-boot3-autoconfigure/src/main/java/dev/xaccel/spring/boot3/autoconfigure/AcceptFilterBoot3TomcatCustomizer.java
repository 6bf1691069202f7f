package dev.xaccel.spring.boot3.autoconfigure;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterTomcatCustomizer;
import dev.xaccel.spring.boot.autoconfigure.tomcat.XAccelConnectorProperties;
import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;

/**
 * Spring Boot 3.5's {@link AcceptFilterTomcatCustomizer}: the same protocol and {@code xaccel.connector.*}
 * attributes, on Boot 3's Tomcat factory. Boot 3.5 runs Tomcat 10.1, where the connector applies the accept filter
 * but not {@code checked-file-sendfile} (it logs one WARNING saying so; docs/connector.md).
 */
public class AcceptFilterBoot3TomcatCustomizer
        implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private static final Log LOG = LogFactory.getLog(AcceptFilterBoot3TomcatCustomizer.class);

    private final XAccelConnectorProperties properties;

    /** @param properties {@code xaccel.connector.*} */
    public AcceptFilterBoot3TomcatCustomizer(XAccelConnectorProperties properties) {
        this.properties = properties;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        if (AcceptFilterTomcatCustomizer.keepsTomcatProtocol(properties)) {
            // Boot 3's factory does not tell its protocol
            LOG.info(XAccelConnectorProperties.PREFIX + ".accept-filter=none: the embedded Tomcat keeps its own "
                    + "protocol");
            return;
        }
        factory.setProtocol(AcceptFilterHttp11NioProtocol.class.getName());
        factory.addConnectorCustomizers(connector -> AcceptFilterTomcatCustomizer.configure(connector, properties));
    }

    /** After Spring Boot's own customizers ({@code server.*}), which never set the protocol. */
    @Override
    public int getOrder() {
        return 0;
    }
}
