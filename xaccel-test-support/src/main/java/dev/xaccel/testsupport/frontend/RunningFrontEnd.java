package dev.xaccel.testsupport.frontend;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.servlet.OffloadRecorder;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A shipped front end as the suites' {@link FrontEnd}. Apache, lighttpd and Caddy cannot log what the application
 * answered (the offload header is consumed before the access log is written), so a {@link Delivery} joins the two
 * sides of one request: the front end's access log line (the request went through it, and what it sent) and the
 * application's answer as its {@link OffloadRecorder} saw it. An answer that was an offload (200, the offload
 * header, {@code Content-Length: 0}) whose client got the file was sent by the front end.
 */
public final class RunningFrontEnd implements FrontEnd {

    private final FrontEndServer server;

    RunningFrontEnd(FrontEndServer server) {
        this.server = server;
    }

    /** The server itself, for what a test does beyond the interface. */
    public FrontEndServer server() {
        return server;
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public Path accessLog() {
        return server.accessLogFile();
    }

    /**
     * @throws AssertionError when the front end logged no such request, or the application recorded no answer to
     *                        it (an application without {@link OffloadRecorder} cannot be judged this way)
     */
    @Override
    public Delivery delivery(String requestId) {
        String line = server.awaitAccessLogLine(requestId);
        OffloadRecorder.Answer a = Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(requestId))
                .orElseThrow(() -> new AssertionError("the application recorded no answer to " + requestId
                        + " (is OffloadRecorder its first filter?); " + server.name() + " logged: " + line));
        return new Delivery(line + " | application: " + a, a.offloaded(), !"0".equals(a.contentLength()));
    }

    @Override
    public void close() {
        server.close();
    }
}
