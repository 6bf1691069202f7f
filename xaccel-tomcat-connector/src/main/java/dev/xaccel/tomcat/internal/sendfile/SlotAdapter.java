package dev.xaccel.tomcat.internal.sendfile;

import java.util.function.BooleanSupplier;

import org.apache.coyote.Adapter;
import org.apache.coyote.Constants;
import org.apache.coyote.Request;
import org.apache.coyote.Response;
import org.apache.tomcat.util.net.SocketEvent;

/**
 * The protocol's {@link Adapter} (Catalina's, delegated to) with a {@link ChannelSlot} for each HTTP/1.x request:
 * set as a request attribute, which the application sees through {@code ServletRequest.getAttribute}, and bound to
 * the thread while the request is serviced, where Tomcat commits the response of a synchronous request and so asks
 * the socket for its sendfile data ({@link CheckedFileSocketWrapper#createSendfileData}). HTTP/2 streams go through
 * the same adapter but send files by name on their own: they get no slot, nor does an asynchronous dispatch.
 */
public final class SlotAdapter implements Adapter {

    private final Adapter next;
    private final BooleanSupplier enabled;

    /**
     * @param next    Catalina's adapter
     * @param enabled whether slots are offered now (the connector's attribute and its {@code useSendfile})
     */
    public SlotAdapter(Adapter next, BooleanSupplier enabled) {
        this.next = next;
        this.enabled = enabled;
    }

    /** @return the adapter this one delegates to */
    public Adapter next() {
        return next;
    }

    @Override
    public void service(Request req, Response res) throws Exception {
        if (!enabled.getAsBoolean() || !isHttp1(req)) {
            next.service(req, res);
            return;
        }
        ChannelSlot slot = new ChannelSlot();
        req.setAttribute(ChannelSlot.ATTRIBUTE, slot);
        slot.bind();
        try {
            next.service(req, res);
        } finally {
            ChannelSlot.unbind();
            if (slot.end()) {
                // Filled and never taken (the request went asynchronous, or failed before its commit): the file
                // name the application named beside the channel must not make Tomcat open the file by name later.
                req.getAttributes().remove(Constants.SENDFILE_FILENAME_ATTR);
            }
        }
    }

    static boolean isHttp1(Request req) {
        return req.protocol().equals("HTTP/1.1") || req.protocol().equals("HTTP/1.0");
    }

    @Override
    public boolean prepare(Request req, Response res) throws Exception {
        return next.prepare(req, res);
    }

    @Override
    public boolean asyncDispatch(Request req, Response res, SocketEvent status) throws Exception {
        return next.asyncDispatch(req, res, status);
    }

    @Override
    public void log(Request req, Response res, long time) {
        next.log(req, res, time);
    }

    @Override
    public void checkRecycled(Request req, Response res) {
        next.checkRecycled(req, res);
    }

    @Override
    public String getDomain() {
        return next.getDomain();
    }
}
