package dev.xaccel.sample.api;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.sample.AudioDuration;
import dev.xaccel.sample.Book;
import dev.xaccel.sample.DirectoryLibrary;
import dev.xaccel.sample.Library;
import dev.xaccel.sample.SampleApp;
import dev.xaccel.sample.auth.AuthFilter;
import dev.xaccel.sample.auth.FeedTokens;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import javax.xml.stream.XMLStreamException;

/**
 * {@code GET /feeds/<book id>.xml?token=<feed token>}: a book as a podcast, one episode per chapter, for clients
 * that cannot log in (the token is the user's {@link FeedTokens feed token}). Small and per user, so Tomcat writes
 * it ({@code Cache-Control: private, no-cache}, no cookie); its enclosures and its image are signed links with
 * the feeds' lifetime ({@link SampleApp#PARAM_FEED_LINK_TTL}), which nginx verifies and serves without asking
 * Tomcat: enclosures under {@value SampleApp#FEED_LINK_PREFIX} (a location that opens only audio), the image under
 * the covers' {@value SampleApp#LINK_PREFIX}. Anyone holding such a link may download that one file until it
 * expires; the links are bearer URLs, as a podcast client needs.
 *
 * <ul>
 *   <li>{@code 404} (empty) when feeds are off (no signed links: nothing could serve the enclosures) or the
 *       request did not come through nginx (only nginx opens the links), and for an unknown book;</li>
 *   <li>{@code 401} (empty, {@code WWW-Authenticate: Bearer …, error="invalid_token"}) for a missing, unknown,
 *       replaced or revoked token, whatever the book: a credential problem, so that a podcast app tells its user
 *       to renew the subscription instead of reporting the book as gone, and the same answer for every bad token
 *       (it says nothing about which tokens or books exist).</li>
 * </ul>
 * The token is never logged (neither here nor in the shipped access logs, which omit query strings).
 */
@Path("")
public class FeedsResource {

    /** The feed's content type. */
    public static final String CONTENT_TYPE = "application/rss+xml; charset=UTF-8";
    static final String CACHE_CONTROL = "private, no-cache";
    /**
     * Between two chapters' {@code pubDate}s, so that every client sorts them in the book's order: the last chapter
     * is dated when the book's oldest file was last modified, each earlier one this much before (never in the
     * future, stable while the files are).
     */
    static final Duration EPISODE_SPACING = Duration.ofMinutes(1);

    @Context
    private ServletContext servletContext;

    @Context
    private HttpServletRequest request;

    @GET
    @Path("{id: [0-9a-f]+}.xml")
    public Response feed(@PathParam("id") String id, @QueryParam("token") String token) throws XMLStreamException {
        SignedLinks feedLinks = (SignedLinks) servletContext.getAttribute(SampleApp.ATTR_FEED_LINKS);
        SignedLinks coverLinks = (SignedLinks) servletContext.getAttribute(SignedLinks.CONTEXT_ATTRIBUTE);
        if (feedLinks == null || coverLinks == null || !CoverLinks.viaNginx(request)) {
            return empty(Response.Status.NOT_FOUND).build();
        }
        FeedTokens tokens = (FeedTokens) servletContext.getAttribute(SampleApp.ATTR_FEED_TOKENS);
        if (tokens.lookup(token).isEmpty()) {
            return empty(Response.Status.UNAUTHORIZED)
                    .header("WWW-Authenticate", "Bearer realm=\"" + AuthFilter.REALM + "\", error=\"invalid_token\"")
                    .build();
        }
        // feeds need signed links, which exist for a library on disk only
        if (!(servletContext.getAttribute(SampleApp.ATTR_LIBRARY) instanceof DirectoryLibrary library)) {
            return empty(Response.Status.NOT_FOUND).build();
        }
        Book book = library.find(id).orElse(null);
        if (book == null) {
            return empty(Response.Status.NOT_FOUND).build();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(4096);
        FeedWriter.write(channel(book, library, feedLinks, coverLinks, PublicOrigin.of(request)), body);
        return Response.ok(body.toByteArray()).type(CONTENT_TYPE)
                .header("Cache-Control", CACHE_CONTROL)
                .header("X-Content-Type-Options", "nosniff")
                .build();
    }

    private FeedWriter.Channel channel(Book book, DirectoryLibrary library, SignedLinks feedLinks,
                                       SignedLinks coverLinks, String origin) {
        Instant last = lastPublished(book);
        int count = book.files().size();
        List<FeedWriter.Episode> episodes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Library.Entry f = book.files().get(i);
            String relative = f.relative();
            String link;
            try {
                link = feedLinks.sign(relative);
            } catch (IllegalArgumentException e) {
                continue;                   // a name nginx would not see unchanged (control characters): never signed
            }
            String type = servletContext.getMimeType(f.name());
            episodes.add(new FeedWriter.Episode(i + 1, title(f),
                    "xaccel-sample:" + book.id() + ":" + Library.id(relative), origin + link, f.size(),
                    type == null ? MediaType.APPLICATION_OCTET_STREAM : type,
                    last.minus(EPISODE_SPACING.multipliedBy(count - 1L - i)),
                    AudioDuration.of(library.file(f)).orElse(null)));
        }
        String image = null;
        if (book.cover() != null) {
            try {
                // a cover link (the covers' location), but living as long as the enclosures
                image = origin + coverLinks.sign(book.cover().relative(), feedLinks.defaultExpiry());
            } catch (IllegalArgumentException e) {
                image = null;
            }
        }
        String page = origin + request.getContextPath() + "/";
        String description = book.title() + " by " + book.author() + ": " + episodes.size()
                + (episodes.size() == 1 ? " chapter" : " chapters") + ", from the xaccel sample's audiobook library.";
        return new FeedWriter.Channel(book.title(), book.author(), page, description, image, episodes);
    }

    /** The oldest last-modified time of the book's chapters, to the second: stable while the files are. */
    private static Instant lastPublished(Book book) {
        Instant first = null;
        for (Library.Entry f : book.files()) {
            if (first == null || f.lastModified().isBefore(first)) {
                first = f.lastModified();
            }
        }
        return (first == null ? Instant.EPOCH : first).truncatedTo(ChronoUnit.SECONDS);
    }

    /** The file name without its extension. */
    private static String title(Library.Entry f) {
        String name = f.name();
        int dot = name.lastIndexOf('.');
        return dot > 0 ? name.substring(0, dot) : name;
    }

    private static Response.ResponseBuilder empty(Response.Status status) {
        return Response.status(status).header("Cache-Control", "no-store");
    }
}
