package dev.xaccel.it.tomcat11;

import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.tomcat.TomcatContainer;

/**
 * Tomcat 11 with the xaccel connector's protocol ({@code AcceptFilterHttp11NioProtocol}, {@code checkedFileSendfile}
 * on by default): the filter's large single ranges leave through Tomcat's sendfile from the channel it opened. The
 * container of the {@code suite-connector} execution ({@code xaccel.container}).
 */
public final class ConnectorTomcatFactory implements ServletContainer.Factory {

    static final String PROTOCOL = "dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol";

    private final TomcatContainer.Factory tomcat = new TomcatContainer.Factory();

    @Override
    public String name() {
        return tomcat.name() + "-xaccel-connector";
    }

    @Override
    public ServletContainer create(String suite, boolean lenient) {
        return TomcatContainer.withProtocol("connector-" + suite, lenient, PROTOCOL);
    }

    @Override
    public String servletVersion() {
        return tomcat.servletVersion();
    }

    @Override
    public boolean hasLenientMode() {
        return tomcat.hasLenientMode();
    }

    @Override
    public String expectedBodyWriter() {
        return "connector-sendfile";
    }
}
