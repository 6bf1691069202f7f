package dev.xaccel.sample.api;

import dev.xaccel.sample.SampleApp;
import dev.xaccel.sample.auth.FeedTokens;
import dev.xaccel.sample.auth.Users;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The logged-in user's feed token (see {@link FeedTokens}), which podcast feed URLs carry as {@code ?token=}:
 * {@code GET /api/feed-token} the current one ({@code 404} when there is none), {@code POST} a new one (the
 * previous one stops working), {@code DELETE} revokes it ({@code 204}): every feed URL with it fails from its next
 * fetch on. Logging out does not revoke it: a podcast app keeps its subscription while the browser logs out.
 */
@Path("feed-token")
public class FeedTokenResource {

    @Context
    private ServletContext servletContext;

    @Context
    private HttpServletRequest request;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Response current() {
        return tokens().current(user())
                .map(t -> Response.ok(new Json.FeedToken(t)))
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND)
                        .entity(new Json.Error("not_found", "no feed token: POST /api/feed-token issues one")))
                .cacheControl(AuthResource.noStore()).build();
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    public Response issue() {
        return Response.ok(new Json.FeedToken(tokens().issue(user()))).cacheControl(AuthResource.noStore()).build();
    }

    @DELETE
    public Response revoke() {
        tokens().revoke(user());
        return Response.noContent().cacheControl(AuthResource.noStore()).build();
    }

    /** AuthFilter lets only logged-in users reach /api/feed-token. */
    private Users.User user() {
        if (request.getUserPrincipal() instanceof Users.User u) {
            return u;
        }
        throw new ForbiddenException();
    }

    private FeedTokens tokens() {
        return (FeedTokens) servletContext.getAttribute(SampleApp.ATTR_FEED_TOKENS);
    }
}
