package dev.xaccel.spring.boot.autoconfigure.tomcat;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ClassUtils;

/**
 * When {@code xaccel.connector.accept-filter} is set but cannot apply, says so in one INFO line once the web server
 * is up: the embedded server is not Tomcat, or {@code xaccel-tomcat-connector} is not on the class path. Refers to
 * neither, so it loads without them.
 */
public class AcceptFilterNotice implements ApplicationListener<WebServerInitializedEvent> {

    /** The connector's protocol class, named so that this class loads without the connector. */
    public static final String CONNECTOR_CLASS = "dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol";
    static final String TOMCAT_WEB_SERVER_CLASS = "org.springframework.boot.tomcat.TomcatWebServer";

    private static final Log LOG = LogFactory.getLog(AcceptFilterNotice.class);

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() != null) {
            return; // a management server: the main one was reported
        }
        log(event.getWebServer().getClass().getName(), TOMCAT_WEB_SERVER_CLASS,
                event.getApplicationContext().getClassLoader());
    }

    /**
     * The INFO line, if one is due (shared with Boot 3.5's listener, whose event and Tomcat server are other
     * classes).
     *
     * @param server       the embedded web server's class name
     * @param tomcatServer the class name of Spring Boot's Tomcat web server on this line
     * @param loader       the application's class loader
     */
    public static void log(String server, String tomcatServer, ClassLoader loader) {
        // the server first: without Tomcat's classes the connector's class cannot load even when its jar is there
        if (!server.equals(tomcatServer)) {
            LOG.info(XAccelConnectorProperties.PREFIX + ".* ignored: the embedded web server is " + server
                    + ", not Tomcat");
        } else if (!ClassUtils.isPresent(CONNECTOR_CLASS, loader)) {
            LOG.info(XAccelConnectorProperties.PREFIX + ".* ignored: xaccel-tomcat-connector is not on the class path "
                    + "(add the dependency dev.xaccel:xaccel-tomcat-connector)");
        }
    }
}
