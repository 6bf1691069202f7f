package dev.xaccel.filter;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;

/**
 * Application code issuing signed links with the filter-configured signer: {@code ?f=relative/path} answers
 * {@code XAccel.signedLinks(context).sign(f)} as text; {@code &expires=EPOCH} signs with that expiry.
 */
final class SigningServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        SignedLinks links = XAccel.signedLinks(req.getServletContext());
        String f = req.getParameter("f");
        String expires = req.getParameter("expires");
        String link = expires == null ? links.sign(f) : links.sign(f, Instant.ofEpochSecond(Long.parseLong(expires)));
        resp.setContentType("text/plain");
        resp.setCharacterEncoding("UTF-8");
        resp.getWriter().write(link);
    }
}
