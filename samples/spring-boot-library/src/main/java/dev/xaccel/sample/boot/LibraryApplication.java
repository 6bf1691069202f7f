package dev.xaccel.sample.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A small file library: Spring MVC controllers answer {@code ResponseEntity<Resource>} as any Spring application
 * would, Spring Security (form login and HTTP Basic, users from {@code library.users}) guards them, and
 * {@code xaccel-spring-boot-starter} turns every file answer into an {@code X-Accel-Redirect} for nginx
 * ({@code application.properties}: three {@code xaccel.*} lines). Without {@code library.root} a tiny demo library
 * with awkward names is generated first ({@link DemoLibrary}).
 */
@SpringBootApplication
@EnableConfigurationProperties(LibraryProperties.class)
public class LibraryApplication {

    public static void main(String[] args) {
        SpringApplication.run(LibraryApplication.class, args);
    }
}
