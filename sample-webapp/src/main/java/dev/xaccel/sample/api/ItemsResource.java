package dev.xaccel.sample.api;

import dev.xaccel.filter.XAccelFile;
import dev.xaccel.sample.Book;
import dev.xaccel.sample.DeliveryTally;
import dev.xaccel.sample.DirectoryLibrary;
import dev.xaccel.sample.Library;
import dev.xaccel.sample.SampleApp;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The books. The file endpoints return an {@link XAccelFile}: the xaccel filter's JAX-RS feature hands it to the
 * filter, which answers with {@code X-Accel-Redirect} behind nginx (or sends the file itself when not behind a
 * trusted proxy). For a library in S3 they declare a presigned GET with {@code XAccel.sendRemote} instead
 * ({@link Delivery}). Jersey never touches the bytes.
 */
@Path("items")
public class ItemsResource {

    @Context
    private ServletContext servletContext;

    @Context
    private HttpServletRequest request;

    @Context
    private HttpServletResponse response;

    /**
     * The books. Behind nginx with signed links configured, {@code cover} and {@code authorPicture} are signed
     * links that nginx serves without asking Tomcat (see {@link CoverLinks}); otherwise
     * {@code /api/items/<id>/cover} and {@code /api/items/<id>/author-picture}.
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public List<Json.Item> list() {
        List<Json.Item> items = new ArrayList<>();
        for (Book b : library().books()) {
            items.add(item(b));
        }
        return items;
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    public Json.Item get(@PathParam("id") String id) {
        return item(book(id));
    }

    /**
     * The cover image: for a library on disk a plain {@code Path} entity would do (content type from the servlet
     * container's mime mapping); an {@code XAccelFile} without a type is the same, and covers the library in S3.
     */
    @GET
    @Path("{id}/cover")
    public XAccelFile cover(@PathParam("id") String id) throws IOException {
        Book b = book(id);
        if (b.cover() == null) {
            throw new NotFoundException();
        }
        return Delivery.of(library(), b.cover(), null, null, null, request, response);
    }

    /** The author's picture ({@code Author/author.jpg}), like the cover. */
    @GET
    @Path("{id}/author-picture")
    public XAccelFile authorPicture(@PathParam("id") String id) throws IOException {
        Book b = book(id);
        if (b.authorPicture() == null) {
            throw new NotFoundException();
        }
        return Delivery.of(library(), b.authorPicture(), null, null, null, request, response);
    }

    /**
     * An audio file; {@code ?download=1} asks for an attachment named like the original file. An explicit content
     * type: with a JSON provider registered, Jersey negotiates application/json for an XAccelFile entity, and the
     * filter's interceptor would take that as the file's type.
     */
    @GET
    @Path("{id}/file/{index}")
    public XAccelFile file(@PathParam("id") String id, @PathParam("index") int index,
                           @QueryParam("download") String download) throws IOException {
        Book b = book(id);
        if (index < 0 || index >= b.files().size()) {
            throw new NotFoundException();
        }
        Library.Entry f = b.files().get(index);
        boolean attachment = download != null && !download.isEmpty() && !"0".equals(download)
                && !"false".equals(download);
        return Delivery.of(library(), f, contentType(f), attachment ? f.name() : null,
                DeliveryTally.chapterTag(request.getRemoteUser(), b.id(), index), request, response);
    }

    private Json.Item item(Book b) {
        String base = request.getContextPath() + "/api/items/" + b.id();
        List<Json.File> files = new ArrayList<>();
        long total = 0;
        // the filter's mapped mode serves local files only: no /library/ URL for a library in S3
        boolean mapped = library() instanceof DirectoryLibrary;
        for (int i = 0; i < b.files().size(); i++) {
            Library.Entry f = b.files().get(i);
            total += f.size();
            files.add(new Json.File(i, f.name(), f.size(), contentType(f), base + "/file/" + i,
                    base + "/file/" + i + "?download=1",
                    mapped ? request.getContextPath() + "/library/" + UrlPaths.encodePath(f.relative()) : null));
        }
        String cover = b.cover() == null ? null
                : CoverLinks.url(servletContext, request, b.cover().relative(), base + "/cover");
        String authorPicture = b.authorPicture() == null ? null
                : CoverLinks.url(servletContext, request, b.authorPicture().relative(), base + "/author-picture");
        String feed = servletContext.getAttribute(SampleApp.ATTR_FEED_LINKS) != null && CoverLinks.viaNginx(request)
                ? request.getContextPath() + "/feeds/" + b.id() + ".xml" : null;
        return new Json.Item(b.id(), b.title(), b.author(), cover, authorPicture, feed, total, files);
    }

    private String contentType(Library.Entry f) {
        String type = servletContext.getMimeType(f.name());
        return type == null ? MediaType.APPLICATION_OCTET_STREAM : type;
    }

    private Book book(String id) {
        return library().find(id).orElseThrow(NotFoundException::new);
    }

    private Library library() {
        return (Library) servletContext.getAttribute(SampleApp.ATTR_LIBRARY);
    }
}
