package dev.xaccel.tomcat;

import org.apache.coyote.Adapter;
import org.apache.coyote.http11.Http11NioProtocol;

import dev.xaccel.tomcat.internal.sendfile.SlotAdapter;

/**
 * Tomcat's HTTP/1.1 NIO protocol with a kernel accept filter on its listening socket:
 * {@code <Connector protocol="dev.xaccel.tomcat.AcceptFilterHttp11NioProtocol" acceptFilter="httpready" .../>}.
 * See {@link AcceptFilterNioEndpoint} and {@link AcceptFilterProtocol} for the attributes.
 * <p>
 * It also offers each HTTP/1.x request a slot for the file channel the xaccel filter opened and checked, which
 * Tomcat's sendfile then sends from instead of opening the file again by name ({@code checkedFileSendfile},
 * default {@code true}; docs/connector.md).
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

    /** Catalina's adapter, behind one that offers each HTTP/1.x request the slot of the checked file's channel. */
    @Override
    public void setAdapter(Adapter adapter) {
        AcceptFilterNioEndpoint endpoint = acceptFilterEndpoint();
        super.setAdapter(adapter == null ? null : new SlotAdapter(adapter, endpoint::isCheckedFileSendfileActive));
    }

    /** @param value {@code true|false} (default {@code true}): send files the xaccel filter checked from its channel */
    public void setCheckedFileSendfile(String value) {
        acceptFilterEndpoint().setCheckedFileSendfile(value);
    }

    /** @return the configured {@code checkedFileSendfile} */
    public String getCheckedFileSendfile() {
        return acceptFilterEndpoint().getCheckedFileSendfile();
    }

    /** @return whether files the xaccel filter checked are sent from its channel now */
    public boolean isCheckedFileSendfileActive() {
        return acceptFilterEndpoint().isCheckedFileSendfileActive();
    }
}
