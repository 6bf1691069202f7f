package dev.xaccel.sample.api;

import dev.xaccel.sample.SampleApp;
import dev.xaccel.sample.auth.AuthFilter;
import dev.xaccel.sample.auth.TokenStore;
import dev.xaccel.sample.auth.Users;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.CacheControl;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Login and logout. {@code POST /api/login} (form fields {@code user}, {@code password}) starts a session
 * (cookie HttpOnly + SameSite, see web.xml) and also returns a bearer token for API clients.
 */
@Path("")
public class AuthResource {

    private static final Logger LOG = Logger.getLogger(AuthResource.class.getName());

    @Context
    private ServletContext servletContext;

    @Context
    private HttpServletRequest request;

    @POST
    @Path("login")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.APPLICATION_JSON)
    public Response login(@FormParam("user") String user, @FormParam("password") String password) {
        Users users = (Users) servletContext.getAttribute(SampleApp.ATTR_USERS);
        TokenStore tokens = (TokenStore) servletContext.getAttribute(SampleApp.ATTR_TOKENS);
        Optional<Users.User> u = users.authenticate(user, password);
        if (u.isEmpty()) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine("Failed login (user name not logged)");
            }
            return Response.status(Response.Status.UNAUTHORIZED).cacheControl(noStore())
                    .header("WWW-Authenticate", "Bearer realm=\"" + AuthFilter.REALM + "\"")
                    .entity(new Json.Error("unauthorized", "wrong user name or password")).build();
        }
        HttpSession existing = request.getSession(false);
        if (existing != null) {
            request.changeSessionId();                  // no session fixation
        }
        HttpSession session = request.getSession(true);
        session.setAttribute(AuthFilter.SESSION_USER, u.get());
        if (LOG.isLoggable(Level.FINE)) {
            LOG.fine("User [" + u.get().name() + "] logged in");
        }
        String token = tokens.issue(u.get());
        return Response.ok(new Json.Login(u.get().name(), u.get().admin(), token, tokens.ttl().toSeconds()))
                .cacheControl(noStore()).build();
    }

    @POST
    @Path("logout")
    public Response logout() {
        TokenStore tokens = (TokenStore) servletContext.getAttribute(SampleApp.ATTR_TOKENS);
        tokens.revoke((String) request.getAttribute(AuthFilter.REQUEST_TOKEN));
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return Response.noContent().cacheControl(noStore()).build();
    }

    @GET
    @Path("me")
    @Produces(MediaType.APPLICATION_JSON)
    public Response me(@Context SecurityContext security) {
        String name = security.getUserPrincipal().getName();
        return Response.ok(new Json.Login(name, security.isUserInRole(AuthFilter.ROLE_ADMIN), null, 0))
                .cacheControl(noStore()).build();
    }

    /** {@code Cache-Control: no-store, no-cache}: for answers that carry or concern credentials. */
    static CacheControl noStore() {
        CacheControl cc = new CacheControl();
        cc.setNoStore(true);
        cc.setNoCache(true);
        return cc;
    }
}
