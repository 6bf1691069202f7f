package dev.xaccel.tomcat.internal.sendfile;

import java.io.IOException;
import java.nio.channels.FileChannel;

import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.NioChannel;
import org.apache.tomcat.util.net.NioEndpoint;
import org.apache.tomcat.util.net.SecureNioChannel;
import org.apache.tomcat.util.net.SendfileDataBase;
import org.apache.tomcat.util.net.SendfileState;

/**
 * Tomcat's NIO socket wrapper whose sendfile takes the channel of the current request's {@link ChannelSlot} when the
 * application put one there, instead of opening the named file, and sends it on the worker thread that processed the
 * request ({@link BlockingTransfer}) instead of leaving it to the endpoint's one poller thread: a large download
 * blocks only its own worker, and parallel downloads run on as many cores. Over TLS the bytes must be encrypted by
 * Tomcat's {@link SecureNioChannel}, so Tomcat's own sendfile path sends them, from the same channel. Without a
 * filled slot everything is Tomcat's. A channel taken but never sent (the request failed after its commit) is closed
 * when the next one is taken or the connection closes.
 */
public class CheckedFileSocketWrapper extends NioEndpoint.NioSocketWrapper {

    private static final Log log = LogFactory.getLog(CheckedFileSocketWrapper.class);

    private volatile CheckedFileSendfileData pending;

    /**
     * @param channel  the connection's channel
     * @param endpoint the endpoint that accepted it
     */
    public CheckedFileSocketWrapper(NioChannel channel, NioEndpoint endpoint) {
        super(channel, endpoint);
    }

    /** Called by the HTTP/1.1 processor when it commits a response that names a file to send. */
    @Override
    public SendfileDataBase createSendfileData(String filename, long pos, long length) {
        ChannelSlot slot = ChannelSlot.current();
        FileChannel channel = slot == null ? null : slot.take();
        if (channel == null) {
            return super.createSendfileData(filename, pos, length);
        }
        CheckedFileSendfileData data = new CheckedFileSendfileData(filename, pos, length, channel);
        CheckedFileSendfileData previous = pending;
        pending = data;
        if (previous != null) {
            previous.close();
        }
        return data;
    }

    @Override
    public SendfileState processSendfile(SendfileDataBase sendfileData) {
        if (!(sendfileData instanceof CheckedFileSendfileData data)) {
            return super.processSendfile(sendfileData);
        }
        pending = null;
        if (getSocket() instanceof SecureNioChannel) {
            // Tomcat's poller sends and closes it (the wrapper's close does, should the connection die first).
            return super.processSendfile(data);
        }
        try {
            flush(true);
            BlockingTransfer.send(data.channel(), data.pos, data.length, getSocket().getIOChannel(),
                    getWriteTimeout(), this::updateLastWrite);
            return SendfileState.DONE;
        } catch (IOException e) {
            if (log.isDebugEnabled()) {
                log.debug(Messages.get("wrapper.sendFailed", data.fileName), e);
            }
            return SendfileState.ERROR;
        } finally {
            data.close();
        }
    }

    @Override
    protected void doClose() {
        super.doClose();
        CheckedFileSendfileData unsent = pending;
        pending = null;
        if (unsent != null) {
            unsent.close();
        }
    }
}
