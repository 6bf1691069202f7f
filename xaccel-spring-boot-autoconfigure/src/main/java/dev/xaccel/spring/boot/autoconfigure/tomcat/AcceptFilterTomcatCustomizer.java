package dev.xaccel.spring.boot.autoconfigure.tomcat;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

import dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol;
import dev.xaccel.tomcat.AcceptFilterProtocol;

/**
 * Puts the accept-filter connector under Spring Boot's embedded Tomcat: the protocol class
 * {@link AcceptFilterHttp11NioProtocol} and the {@code xaccel.connector.*} attributes. The connector itself logs,
 * at every bind, one INFO line with what the kernel holds ({@code acceptFilterKernelValue}), or one WARNING when the
 * filter cannot be applied. {@code accept-filter=none} keeps Tomcat's own protocol.
 */
public class AcceptFilterTomcatCustomizer
        implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private static final Log LOG = LogFactory.getLog(AcceptFilterTomcatCustomizer.class);

    private final XAccelConnectorProperties properties;

    /** @param properties {@code xaccel.connector.*} */
    public AcceptFilterTomcatCustomizer(XAccelConnectorProperties properties) {
        this.properties = properties;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        String mode = properties.getAcceptFilter() == null ? "" : properties.getAcceptFilter().trim();
        if (mode.equalsIgnoreCase("none")) {
            LOG.info(XAccelConnectorProperties.PREFIX + ".accept-filter=none: the embedded Tomcat keeps its own "
                    + "protocol " + factory.getProtocol());
            return;
        }
        factory.setProtocol(AcceptFilterHttp11NioProtocol.class.getName());
        factory.addConnectorCustomizers(connector -> {
            if (connector.getProtocolHandler() instanceof AcceptFilterProtocol protocol) {
                protocol.setAcceptFilter(mode);
                protocol.setDeferAcceptSeconds(properties.getDeferAcceptSeconds());
                protocol.setAcceptFilterFailOnError(properties.isFailOnError());
            }
            if (connector.getProtocolHandler() instanceof AcceptFilterHttp11NioProtocol http) {
                http.setCheckedFileSendfile(Boolean.toString(properties.isCheckedFileSendfile()));
            }
        });
    }

    /** After Spring Boot's own customizers ({@code server.*}), which never set the protocol. */
    @Override
    public int getOrder() {
        return 0;
    }
}
