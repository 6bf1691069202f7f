package dev.xaccel.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.catalina.connector.Connector;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** The connector tuning for a proxy: the same in server.xml and the demo launcher, and matched to nginx. */
class ConnectorTuningTest {

    static final Path SERVER_XML = Path.of("tomcat/server.xml");
    static final Path NGINX = Path.of("nginx/xaccel-demo.conf.template");

    @Test
    void serverXmlAndLauncherAgree() throws Exception {
        Element connector = (Element) DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(SERVER_XML.toFile()).getElementsByTagName("Connector").item(0);
        assertNotNull(connector);
        for (Map.Entry<String, String> e : DemoLauncher.CONNECTOR_TUNING.entrySet()) {
            assertEquals(e.getValue(), connector.getAttribute(e.getKey()), "server.xml " + e.getKey());
        }
        assertEquals("-1", connector.getAttribute("maxKeepAliveRequests"));
    }

    @Test
    void launcherAppliesTheTuning() {
        Connector c = DemoLauncher.connector(0);
        // (maxKeepAliveRequests reads as 1 until the connector is bound: checked in server.xml above)
        assertEquals(75000, ((Number) c.getProperty("keepAliveTimeout")).intValue());
        assertEquals(50, ((Number) c.getProperty("maxThreads")).intValue());
    }

    /** Tomcat must keep an idle connection longer than nginx does, so nginx always closes first. */
    @Test
    void tomcatKeepsIdleConnectionsLongerThanNginx() throws Exception {
        String conf = Files.readString(NGINX, StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("(?s)upstream xaccel_sample \\{.*?keepalive_timeout\\s+(\\d+)s;").matcher(conf);
        assertTrue(m.find(), "no keepalive_timeout in the upstream block");
        long nginxMillis = Long.parseLong(m.group(1)) * 1000;
        long tomcatMillis = Long.parseLong(DemoLauncher.CONNECTOR_TUNING.get("keepAliveTimeout"));
        assertTrue(tomcatMillis > nginxMillis, tomcatMillis + " <= " + nginxMillis);
    }
}
