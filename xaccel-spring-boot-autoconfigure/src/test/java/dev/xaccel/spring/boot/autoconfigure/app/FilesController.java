package dev.xaccel.spring.boot.autoconfigure.app;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.xaccel.filter.XAccelFile;

/**
 * Plain Spring MVC controllers, written as if xaccel did not exist: the starter offloads what they return. Files
 * are chosen by number ({@link TestMedia#NAMES}), so the awkward names travel only in the answer.
 */
@RestController
public class FilesController {

    /** What {@code /bytes} answers. */
    public static final byte[] IN_MEMORY = "not a file: streamed by Spring\n".getBytes(StandardCharsets.US_ASCII);

    private final Path root;

    public FilesController(@Value("${xaccel.locations[0].root}") Path root) {
        this.root = root;
    }

    private Path file(int id) {
        return root.resolve(TestMedia.NAMES.get(id));
    }

    /** The usual download: an attachment with its name, an explicit type, a custom header. */
    @GetMapping("/files/{id}")
    public ResponseEntity<Resource> download(@PathVariable int id) {
        if (id < 0 || id >= TestMedia.NAMES.size()) {
            return ResponseEntity.notFound().build();
        }
        return ResponseEntity.ok()
                .contentType(MediaType.parseMediaType("application/x-test-" + id))
                .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                        .filename(TestMedia.fileName(id), StandardCharsets.UTF_8).build().toString())
                .header("X-Library", "book-" + id)
                .body(new FileSystemResource(file(id)));
    }

    /** Only for ROLE_ADMIN (see the security configuration). */
    @GetMapping("/admin/files/{id}")
    public ResponseEntity<Resource> adminDownload(@PathVariable int id) {
        return download(id);
    }

    /** A status other than 2xx with a file body: the status passes through, no file. */
    @GetMapping("/gone/{id}")
    public ResponseEntity<Resource> gone(@PathVariable int id) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND).body(new FileSystemResource(file(id)));
    }

    /** 404 without a body. */
    @GetMapping("/missing")
    public ResponseEntity<Resource> missing() {
        return ResponseEntity.status(404).build();
    }

    /** Not a file: Spring streams it (Range included). */
    @GetMapping("/bytes")
    public ResponseEntity<Resource> bytes() {
        return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).body(new ByteArrayResource(IN_MEMORY));
    }

    /** A classpath resource, even in an exploded directory: Spring's. */
    @GetMapping("/classpath")
    public Resource classpath() {
        return new ClassPathResource("classpath-resource.txt");
    }

    /** A plain {@code @ResponseBody Resource}. */
    @GetMapping("/resource/{id}")
    public Resource resource(@PathVariable int id) throws Exception {
        return new UrlResource(file(id).toUri());
    }

    /** {@code Path}, {@code File}, {@code XAccelFile}: nothing Spring could write. */
    @GetMapping("/path/{id}")
    public Path path(@PathVariable int id) {
        return file(id);
    }

    @GetMapping("/file/{id}")
    public File plainFile(@PathVariable int id) {
        return file(id).toFile();
    }

    @GetMapping(path = "/xaccel/{id}", produces = "audio/mpeg")
    public XAccelFile xaccelFile(@PathVariable int id) {
        return XAccelFile.of(file(id)).downloadName("Track " + id + ".mp3");
    }

    /** An {@code XAccelFile} with its own nginx settings: they reach the offload answer as they are. */
    @GetMapping("/xaccel-settings/{id}")
    public XAccelFile xaccelFileWithSettings(@PathVariable int id) {
        return XAccelFile.of(file(id)).contentType("text/plain").charset("utf-8").limitRate(65536)
                .accelExpires("0").buffering(false);
    }
}
