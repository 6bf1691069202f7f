package dev.xaccel.it.tomcat11;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.function.Predicate;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.XAccel;

/**
 * Servlets of the connector tests: files declared in asynchronous requests, a probe of the connector's slot, and a
 * hand-off to the slot without the filter.
 */
final class AsyncServlets {

    /** The connector's request attribute (dev.xaccel.tomcat.internal.sendfile.ChannelSlot.ATTRIBUTE). */
    static final String SLOT = "dev.xaccel.tomcat.checkedFileChannel";

    private AsyncServlets() {
    }

    /**
     * {@code /async/thread/<name>}: declared from the async context's thread after the servlet returned (delivered
     * there at once); {@code /async/before/<name>}: declared after {@code startAsync()}, before the servlet returns
     * (delivered when the filter regains control, the request still asynchronous); {@code /async/dispatch/<name>}:
     * {@code startAsync().dispatch()}, and the file declared in the dispatched pass (delivered there at once, on a
     * request that is no longer asynchronous but whose end Tomcat handles as an asynchronous one's).
     */
    static final class Declaring extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient Path root;

        Declaring(Path root) {
            this.root = root;
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            String[] parts = req.getPathInfo().substring(1).split("/", 2);
            Path file = root.resolve(parts[1]);
            if (req.getDispatcherType() == DispatcherType.ASYNC) {
                XAccel.sendFile(req, resp, file);
                return;
            }
            AsyncContext async = req.startAsync();
            if (parts[0].equals("dispatch")) {
                async.dispatch();
                return;
            }
            if (parts[0].equals("before")) {
                XAccel.sendFile(req, resp, file);
                async.complete();
                return;
            }
            async.start(() -> {
                try {
                    XAccel.sendFile(req, resp, file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    async.complete();
                }
            });
        }
    }

    /** {@code /probe}: {@code slot} when the request has the connector's slot, else {@code none}. */
    static final class SlotProbe extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print(req.getAttribute(SLOT) instanceof Predicate<?> ? "slot" : "none");
        }
    }

    /**
     * {@code /handoff/<name>}: what the filter does, by hand: the open file in the connector's slot, and Tomcat's
     * sendfile attributes naming a file that does not exist. Only a sendfile from the channel can answer.
     */
    static final class HandOff extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final transient Path root;

        HandOff(Path root) {
            this.root = root;
        }

        @Override
        @SuppressWarnings("unchecked")
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            FileChannel channel = FileChannel.open(root.resolve(req.getPathInfo().substring(1)));
            long size = channel.size();
            if (!(req.getAttribute(SLOT) instanceof Predicate<?> slot)
                    || !((Predicate<FileChannel>) slot).test(channel)) {
                channel.close();
                resp.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                return;
            }
            resp.setContentType("application/octet-stream");
            resp.setContentLengthLong(size);
            req.setAttribute("org.apache.tomcat.sendfile.filename", root.resolve("no-such-file").toString());
            req.setAttribute("org.apache.tomcat.sendfile.start", Long.valueOf(0));
            req.setAttribute("org.apache.tomcat.sendfile.end", Long.valueOf(size));
        }
    }
}
