package dev.xaccel.sample.boot;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.MediaTypeFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * The library's API, plain Spring MVC: nothing here knows about xaccel. The starter hands the
 * {@code ResponseEntity<Resource>} of {@link #download} to the filter, which answers nginx with
 * {@code X-Accel-Redirect} (or sends the file itself when no nginx is in front).
 */
@RestController
public class LibraryController {

    private final Catalog catalog;

    public LibraryController(Catalog catalog) {
        this.catalog = catalog;
    }

    /** The list, as JSON. */
    @GetMapping("/api/files")
    public List<Catalog.Entry> files() {
        return catalog.entries();
    }

    /** One file, as an attachment under its own name. */
    @GetMapping("/files/{id}")
    public ResponseEntity<Resource> download(@PathVariable int id) {
        return catalog.find(id).map(entry -> ResponseEntity.ok()
                .contentType(MediaTypeFactory.getMediaType(entry.name()).orElse(MediaType.APPLICATION_OCTET_STREAM))
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                        .filename(entry.name(), StandardCharsets.UTF_8).build().toString())
                .body((Resource) new FileSystemResource(catalog.file(entry))))
                .orElseGet(() -> ResponseEntity.notFound().build());
    }
}
