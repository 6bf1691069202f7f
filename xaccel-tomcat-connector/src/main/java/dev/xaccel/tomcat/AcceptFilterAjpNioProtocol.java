package dev.xaccel.tomcat;

import org.apache.coyote.ajp.AbstractAjpProtocol;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.NioChannel;

/**
 * Tomcat's AJP NIO protocol with a kernel accept filter: {@code auto} means {@code dataready} (AJP is binary), and
 * the wake-up on pause/stop is an AJP CPing packet.
 */
public class AcceptFilterAjpNioProtocol extends AbstractAjpProtocol<NioChannel> implements AcceptFilterProtocol {

    private static final Log log = LogFactory.getLog(AcceptFilterAjpNioProtocol.class);

    /** Creates the protocol with an {@link AcceptFilterNioEndpoint} for AJP. */
    public AcceptFilterAjpNioProtocol() {
        super(new AcceptFilterNioEndpoint(AcceptFilter.DATAREADY, AcceptFilterNioEndpoint.AJP_CPING));
    }

    @Override
    public AcceptFilterNioEndpoint acceptFilterEndpoint() {
        return (AcceptFilterNioEndpoint) getEndpoint();
    }

    @Override
    protected Log getLog() {
        return log;
    }

    @Override
    protected String getNamePrefix() {
        return "ajp-nio";
    }
}
