package dev.xaccel.spring.boot.autoconfigure.tomcat;

import org.apache.catalina.connector.Connector;
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
        if (keepsTomcatProtocol(properties)) {
            LOG.info(XAccelConnectorProperties.PREFIX + ".accept-filter=none: the embedded Tomcat keeps its own "
                    + "protocol " + factory.getProtocol());
            return;
        }
        factory.setProtocol(AcceptFilterHttp11NioProtocol.class.getName());
        factory.addConnectorCustomizers(connector -> configure(connector, properties));
    }

    /**
     * Whether {@code xaccel.connector.accept-filter=none} keeps Tomcat's own protocol (shared with Boot 3.5's
     * customizer, whose factory is another class).
     *
     * @param properties {@code xaccel.connector.*}
     * @return {@code true} for {@code none}
     */
    public static boolean keepsTomcatProtocol(XAccelConnectorProperties properties) {
        return mode(properties).equalsIgnoreCase("none");
    }

    /**
     * Hands {@code xaccel.connector.*} to the connector's protocol once it is the accept-filter one.
     *
     * @param connector  a connector of the embedded Tomcat
     * @param properties {@code xaccel.connector.*}
     */
    public static void configure(Connector connector, XAccelConnectorProperties properties) {
        if (connector.getProtocolHandler() instanceof AcceptFilterProtocol protocol) {
            protocol.setAcceptFilter(mode(properties));
            protocol.setDeferAcceptSeconds(properties.getDeferAcceptSeconds());
            protocol.setAcceptFilterFailOnError(properties.isFailOnError());
        }
        if (connector.getProtocolHandler() instanceof AcceptFilterHttp11NioProtocol http) {
            http.setCheckedFileSendfile(Boolean.toString(properties.isCheckedFileSendfile()));
        }
    }

    private static String mode(XAccelConnectorProperties properties) {
        return properties.getAcceptFilter() == null ? "" : properties.getAcceptFilter().trim();
    }

    /** After Spring Boot's own customizers ({@code server.*}), which never set the protocol. */
    @Override
    public int getOrder() {
        return 0;
    }
}
