package dev.xaccel.testsupport.tomcat;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.WebApp;
import org.apache.catalina.util.ServerInfo;

/**
 * {@link EmbeddedTomcat} as a {@link ServletContainer}: the version on the class path (Tomcat 11, or 10.1 in
 * xaccel-it-tomcat10), its working directory {@code target/tomcat-<suite>}.
 */
public final class TomcatContainer implements ServletContainer {

    private final String suite;
    private final boolean lenient;
    private final String protocol;
    private EmbeddedTomcat tomcat;

    private TomcatContainer(String suite, boolean lenient, String protocol) {
        this.suite = suite;
        this.lenient = lenient;
        this.protocol = protocol;
    }

    /**
     * A Tomcat whose connector runs {@code protocol} (a class name, as server.xml's {@code protocol}), its working
     * directory {@code target/tomcat-<suite>}: for a module's own {@link ServletContainer.Factory} of another
     * connector.
     */
    public static TomcatContainer withProtocol(String suite, boolean lenient, String protocol) {
        return new TomcatContainer(suite, lenient, protocol);
    }

    @Override
    public int start(WebApp app) {
        EmbeddedTomcat.Builder b = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-" + suite)).webapp(app);
        if (lenient) {
            b.lenientConnector();
        }
        if (protocol != null) {
            b.protocol(protocol);
        }
        tomcat = b.start();
        return tomcat.port();
    }

    @Override
    public void close() {
        if (tomcat != null) {
            tomcat.close();
            tomcat = null;
        }
    }

    /** Registered by the Tomcat modules' test resources; the filter copies bodies there ({@code copy}). */
    public static final class Factory implements ServletContainer.Factory {

        @Override
        public String name() {
            return "tomcat-" + ServerInfo.getServerNumber().replaceFirst("^(\\d+\\.\\d+\\.\\d+).*", "$1");
        }

        @Override
        public ServletContainer create(String suite, boolean lenient) {
            return new TomcatContainer(suite, lenient, null);
        }

        /** Tomcat 11: 6.1, Tomcat 10.1: 6.0. */
        @Override
        public String servletVersion() {
            return ServerInfo.getServerNumber().startsWith("10.") ? "6.0" : "6.1";
        }

        @Override
        public boolean hasLenientMode() {
            return true;
        }

        @Override
        public String expectedBodyWriter() {
            return "direct-buffer";
        }
    }
}
