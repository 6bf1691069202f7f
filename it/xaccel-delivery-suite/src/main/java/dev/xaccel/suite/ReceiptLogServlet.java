package dev.xaccel.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * Answers {@link ReceiptLog}'s lines, one per receipt, as {@code text/plain}, which the test polls; a DELETE forgets
 * them (the containers a module runs in its own JVM share the class, one test class after another).
 */
public final class ReceiptLogServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        resp.setContentType("text/plain;charset=UTF-8");
        StringBuilder body = new StringBuilder();
        for (String line : ReceiptLog.LINES) {
            body.append(line).append('\n');
        }
        resp.getOutputStream().write(body.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected void doDelete(HttpServletRequest req, HttpServletResponse resp) {
        ReceiptLog.LINES.clear();
        resp.setStatus(HttpServletResponse.SC_NO_CONTENT);
    }
}
