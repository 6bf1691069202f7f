package dev.xaccel.sample.api;

import dev.xaccel.filter.XAccelFile;
import dev.xaccel.sample.Book;
import dev.xaccel.sample.Library;
import dev.xaccel.sample.SampleApp;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;

/**
 * The books. The file endpoints return a {@link java.nio.file.Path} or an {@link XAccelFile}: the xaccel
 * filter's JAX-RS feature hands it to the filter, which answers with {@code X-Accel-Redirect} behind nginx
 * (or sends the file itself when not behind a trusted proxy). Jersey never touches the bytes.
 */
@Path("items")
public class ItemsResource {

    @Context
    private ServletContext servletContext;

    @Context
    private HttpServletRequest request;

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

    /** The cover image, as a plain {@code Path}: content type from the servlet container's mime mapping. */
    @GET
    @Path("{id}/cover")
    public java.nio.file.Path cover(@PathParam("id") String id) {
        Book b = book(id);
        if (b.cover() == null) {
            throw new NotFoundException();
        }
        return b.cover();
    }

    /** The author's picture ({@code Author/author.jpg}), as a plain {@code Path} like the cover. */
    @GET
    @Path("{id}/author-picture")
    public java.nio.file.Path authorPicture(@PathParam("id") String id) {
        Book b = book(id);
        if (b.authorPicture() == null) {
            throw new NotFoundException();
        }
        return b.authorPicture();
    }

    /** An audio file; {@code ?download=1} asks for an attachment named like the original file. */
    @GET
    @Path("{id}/file/{index}")
    public XAccelFile file(@PathParam("id") String id, @PathParam("index") int index,
                           @QueryParam("download") String download) {
        Book b = book(id);
        if (index < 0 || index >= b.files().size()) {
            throw new NotFoundException();
        }
        java.nio.file.Path f = b.files().get(index);
        // An explicit content type: with a JSON provider registered, Jersey negotiates application/json for
        // an XAccelFile entity, and the filter's interceptor would take that as the file's type.
        XAccelFile file = XAccelFile.of(f).contentType(contentType(f));
        if (download != null && !download.isEmpty() && !"0".equals(download) && !"false".equals(download)) {
            file = file.downloadName(f.getFileName().toString()).attachment();
        }
        return file;
    }

    private Json.Item item(Book b) {
        String base = request.getContextPath() + "/api/items/" + b.id();
        List<Json.File> files = new ArrayList<>();
        long total = 0;
        Library library = library();
        for (int i = 0; i < b.files().size(); i++) {
            java.nio.file.Path f = b.files().get(i);
            long size = size(f);
            total += size;
            files.add(new Json.File(i, f.getFileName().toString(), size, contentType(f), base + "/file/" + i,
                    base + "/file/" + i + "?download=1",
                    request.getContextPath() + "/library/" + UrlPaths.encodePath(library.relative(f))));
        }
        String cover = b.cover() == null ? null
                : CoverLinks.url(servletContext, request, library.relative(b.cover()), base + "/cover");
        String authorPicture = b.authorPicture() == null ? null
                : CoverLinks.url(servletContext, request, library.relative(b.authorPicture()), base + "/author-picture");
        String feed = servletContext.getAttribute(SampleApp.ATTR_FEED_LINKS) != null && CoverLinks.viaNginx(request)
                ? request.getContextPath() + "/feeds/" + b.id() + ".xml" : null;
        return new Json.Item(b.id(), b.title(), b.author(), cover, authorPicture, feed, total, files);
    }

    private String contentType(java.nio.file.Path f) {
        String type = servletContext.getMimeType(f.getFileName().toString());
        return type == null ? MediaType.APPLICATION_OCTET_STREAM : type;
    }

    private static long size(java.nio.file.Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Book book(String id) {
        return library().find(id).orElseThrow(NotFoundException::new);
    }

    private Library library() {
        return (Library) servletContext.getAttribute(SampleApp.ATTR_LIBRARY);
    }
}
