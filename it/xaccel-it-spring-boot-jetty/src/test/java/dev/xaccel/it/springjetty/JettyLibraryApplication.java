package dev.xaccel.it.springjetty;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.http.ContentDisposition;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceiptListener;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;

/**
 * A Spring Boot application on embedded Jetty: the test-support bearer check stands for the application's
 * authorization (before the XAccelFilter), and a plain controller returns {@code ResponseEntity<Resource>} for the
 * fixture's awkward names, chosen by number; the starter does the rest, and hands its delivery receipts to the
 * listener bean.
 */
@SpringBootApplication
public class JettyLibraryApplication {

    /** What the listener bean received. */
    static final BlockingQueue<XAccelReceipt> RECEIPTS = new LinkedBlockingQueue<>();

    /** A listener bean: the starter registers every {@link XAccelReceiptListener} with the filter. */
    @Bean
    XAccelReceiptListener receiptLog() {
        return RECEIPTS::add;
    }

    @Bean
    FilterRegistrationBean<BearerAuthFilter> authorization() {
        FilterRegistrationBean<BearerAuthFilter> registration = new FilterRegistrationBean<>(new BearerAuthFilter());
        registration.setOrder(-100); // before xaccel.filter-order (-99), where Spring Security would be
        return registration;
    }

    /** The downloads, written as if xaccel did not exist. */
    @RestController
    static class Downloads {

        private final Path root;

        Downloads(@Value("${xaccel.locations[0].root}") Path root) {
            this.root = root;
        }

        @GetMapping("/files/{id}")
        ResponseEntity<Resource> download(@PathVariable int id) {
            if (id < 0 || id >= MediaFixture.AWKWARD_NAMES.size()) {
                return ResponseEntity.notFound().build();
            }
            String name = MediaFixture.AWKWARD_NAMES.get(id);
            return ResponseEntity.ok()
                    .contentType(MediaType.APPLICATION_OCTET_STREAM)
                    .header(HttpHeaders.CONTENT_DISPOSITION, ContentDisposition.attachment()
                            .filename(Path.of(name).getFileName().toString(), StandardCharsets.UTF_8).build()
                            .toString())
                    .body(new FileSystemResource(root.resolve(name)));
        }
    }
}
