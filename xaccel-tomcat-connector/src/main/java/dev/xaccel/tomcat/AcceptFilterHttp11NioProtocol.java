package dev.xaccel.tomcat;

import org.apache.coyote.http11.Http11NioProtocol;

/**
 * Tomcat's HTTP/1.1 NIO protocol with a kernel accept filter on its listening socket:
 * {@code <Connector protocol="dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol" acceptFilter="httpready" .../>}.
 * See {@link AcceptFilterNioEndpoint} and {@link AcceptFilterProtocol} for the attributes.
 */
public class AcceptFilterHttp11NioProtocol extends Http11NioProtocol implements AcceptFilterProtocol {

    /** Creates the protocol with an {@link AcceptFilterNioEndpoint}. */
    public AcceptFilterHttp11NioProtocol() {
        super(new AcceptFilterNioEndpoint());
    }

    @Override
    public AcceptFilterNioEndpoint acceptFilterEndpoint() {
        return (AcceptFilterNioEndpoint) getEndpoint();
    }
}
