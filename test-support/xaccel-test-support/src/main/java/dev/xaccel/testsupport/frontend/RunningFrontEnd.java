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
 * header, {@code Content-Length: 0}) whose client got the file was sent by the front end. The application must have
 * seen the front end's marker, which only the front end sets.
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
        // a server that batches its access log (lighttpd) is not waited for per request: the application's answer
        // (with the front end's marker among the request headers) says it all
        String line = server.logsPromptly() ? server.awaitAccessLogLine(requestId)
                : "(" + server.name() + " writes its access log in batches)";
        OffloadRecorder.Answer a = Poll.first(Duration.ofSeconds(5), () -> OffloadRecorder.answer(requestId))
                .orElseThrow(() -> new AssertionError("the application recorded no answer to " + requestId
                        + " (is OffloadRecorder its first filter?); " + server.name() + " logged: " + line));
        String marker = a.requestHeaders().get("x-sendfile-type");
        if (marker == null) {
            throw new AssertionError("request " + requestId + " reached the application without the front end's "
                    + "marker: not through " + server.name() + "? " + a);
        }
        // Content-Length as the application set it, where the container shows it (Tomcat 10.1's getHeader does not:
        // then an offload, whose body the filter leaves empty, is the only answer without one)
        boolean body = a.contentLength() != null ? !"0".equals(a.contentLength()) : !a.offloaded();
        return new Delivery(line + " | application: " + a, a.offloaded(), body);
    }

    @Override
    public void close() {
        server.close();
    }
}
