package dev.xaccel.tomcat.internal.sendfile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.apache.coyote.Adapter;
import org.apache.coyote.Constants;
import org.apache.coyote.Request;
import org.apache.coyote.Response;
import org.apache.tomcat.util.net.SocketEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slot per request with Tomcat's own request objects and an adapter that plays the application: which requests
 * get a slot, the slot bound to the thread while they are serviced, an untaken channel closed afterwards.
 */
class SlotAdapterTest {

    @TempDir
    Path dir;

    /** What Catalina's adapter would do: here, run the application's code. */
    private static final class App implements Adapter {
        final List<String> calls = new ArrayList<>();
        Object slotSeen;
        ChannelSlot currentSeen;
        FileChannel offer;
        boolean offered;

        @Override
        public void service(Request req, Response res) {
            calls.add("service");
            slotSeen = req.getAttribute(ChannelSlot.ATTRIBUTE);
            currentSeen = ChannelSlot.current();
            if (offer != null && slotSeen instanceof Predicate<?> p) {
                @SuppressWarnings("unchecked")
                Predicate<FileChannel> slot = (Predicate<FileChannel>) p;
                offered = slot.test(offer);
                req.setAttribute(Constants.SENDFILE_FILENAME_ATTR, "/srv/f.bin");
            }
        }

        @Override
        public boolean prepare(Request req, Response res) {
            calls.add("prepare");
            return true;
        }

        @Override
        public boolean asyncDispatch(Request req, Response res, SocketEvent status) {
            calls.add("asyncDispatch");
            slotSeen = req.getAttribute(ChannelSlot.ATTRIBUTE);
            return true;
        }

        @Override
        public void log(Request req, Response res, long time) {
            calls.add("log");
        }

        @Override
        public void checkRecycled(Request req, Response res) {
            calls.add("checkRecycled");
        }

        @Override
        public String getDomain() {
            return "Catalina";
        }
    }

    private static Request request(String protocol) {
        Request req = new Request();
        req.setResponse(new Response());
        req.protocol().setString(protocol);
        return req;
    }

    @Test
    void http1RequestsGetASlotBoundToTheThreadWhileServiced() throws Exception {
        for (String protocol : List.of("HTTP/1.1", "HTTP/1.0")) {
            App app = new App();
            Request req = request(protocol);
            new SlotAdapter(app, () -> true).service(req, req.getResponse());
            assertTrue(app.slotSeen instanceof ChannelSlot, protocol);
            assertSame(app.slotSeen, app.currentSeen, protocol);
            assertNull(ChannelSlot.current(), "unbound afterwards");
        }
    }

    @Test
    void http2StreamsAndADisabledConnectorGetNone() throws Exception {
        App app = new App();
        Request h2 = request("HTTP/2.0");
        new SlotAdapter(app, () -> true).service(h2, h2.getResponse());
        assertNull(app.slotSeen);
        assertNull(app.currentSeen);
        Request off = request("HTTP/1.1");
        new SlotAdapter(app, () -> false).service(off, off.getResponse());
        assertNull(app.slotSeen);
        Request async = request("HTTP/1.1");
        new SlotAdapter(app, () -> true).asyncDispatch(async, async.getResponse(), SocketEvent.OPEN_READ);
        assertNull(app.slotSeen);
    }

    @Test
    void aChannelNotTakenDuringServiceIsClosedAndNotLeftToBeOpenedByName() throws Exception {
        App app = new App();
        app.offer = FileChannel.open(Files.write(dir.resolve("f.bin"), new byte[100]));
        Request req = request("HTTP/1.1");
        new SlotAdapter(app, () -> true).service(req, req.getResponse());
        assertTrue(app.offered);
        assertFalse(app.offer.isOpen());
        assertNull(req.getAttribute(Constants.SENDFILE_FILENAME_ATTR));
    }

    @Test
    void everythingElseIsDelegated() throws Exception {
        App app = new App();
        SlotAdapter adapter = new SlotAdapter(app, () -> true);
        Request req = request("HTTP/1.1");
        assertTrue(adapter.prepare(req, req.getResponse()));
        adapter.asyncDispatch(req, req.getResponse(), SocketEvent.OPEN_READ);
        adapter.log(req, req.getResponse(), 1);
        adapter.checkRecycled(req, req.getResponse());
        assertEquals("Catalina", adapter.getDomain());
        assertEquals(List.of("prepare", "asyncDispatch", "log", "checkRecycled"), app.calls);
        assertSame(app, adapter.next());
    }
}
