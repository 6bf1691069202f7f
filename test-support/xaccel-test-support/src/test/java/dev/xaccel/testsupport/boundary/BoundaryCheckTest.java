package dev.xaccel.testsupport.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class BoundaryCheckTest {

    static final byte[] ALICES = BoundaryCheck.uniqueContent("alice's file", 4_000);

    HttpServer server;

    /** Gives alice's file to anyone at /leak, fails at /fail, and answers 404 otherwise. */
    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::answer);
        server.start();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        byte[] body = path.equals("/leak") ? ALICES : new byte[0];
        int status = path.equals("/leak") ? 200 : path.equals("/fail") ? 500 : 404;
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void reportsTheLeaksAndTheServerErrorsOfEachCaller() throws Exception {
        List<BoundaryCheck.Caller> callers = List.of(BoundaryCheck.Caller.anonymous(),
                new BoundaryCheck.Caller("alice", Map.of("Authorization", "Bearer alice")));
        List<BoundaryCheck.Secret> secrets = List.of(new BoundaryCheck.Secret("alice's file", ALICES,
                Set.of("alice")));

        BoundaryCheck.Result result = BoundaryCheck.run(server.getAddress().getPort(),
                List.of("/leak", "/fail", "/other"), callers, secrets);

        assertEquals(6, result.requests());
        assertEquals(Map.of(200, 2, 404, 2, 500, 2), result.statuses());
        assertEquals(List.of(new BoundaryCheck.Finding("anonymous", "/leak", 200, "alice's file")),
                result.findings());
        assertEquals(List.of(new BoundaryCheck.ServerError("alice", "/fail", 500),
                new BoundaryCheck.ServerError("anonymous", "/fail", 500)), result.serverErrors());
    }
}
