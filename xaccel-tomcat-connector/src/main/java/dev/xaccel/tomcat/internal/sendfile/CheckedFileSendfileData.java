package dev.xaccel.tomcat.internal.sendfile;

import java.io.IOException;
import java.nio.channels.FileChannel;

import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;
import org.apache.tomcat.util.net.NioEndpoint;

/**
 * Sendfile data whose file channel is the one the application opened: Tomcat's poller opens the file by name only
 * when it has none. The file name is kept for Tomcat's trace log only.
 */
public final class CheckedFileSendfileData extends NioEndpoint.SendfileData {

    private static final Log log = LogFactory.getLog(CheckedFileSendfileData.class);

    /**
     * @param fileName the name the application gave, for logs only
     * @param pos      the first byte
     * @param length   how many bytes
     * @param channel  the open file, now owned by this data
     */
    public CheckedFileSendfileData(String fileName, long pos, long length, FileChannel channel) {
        super(fileName, pos, length);
        this.fchannel = channel;
    }

    /** @return the file to send from */
    public FileChannel channel() {
        return fchannel;
    }

    /** Closes the file (again: closing twice does nothing). */
    public void close() {
        try {
            fchannel.close();
        } catch (IOException e) {
            log.debug(Messages.get("slot.closeFailed"), e);
        }
    }
}
