package dev.xaccel.sample.boot;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * The sample as ./demo-spring runs it: the generated demo library, the application on a random port, nginx from
 * the sample's own template in front ({@code ${APP_PORT}} and {@code ${LIBRARY}} filled in), one nginx per test
 * class. Every subclass has the same configuration, so Spring starts the application once for all of them.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"library.demo-root=target/it-demo-library", "xaccel.jmx-name=none"})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LibraryBehindNginx {

    @LocalServerPort
    int appPort;

    @Autowired
    LibraryProperties library;

    NginxServer nginx;

    @BeforeAll
    void startNginx() throws Exception {
        Path root = library.getRoot().toRealPath();
        nginx = NginxServer.builder(TestPaths.target().resolve("it-nginx-" + getClass().getSimpleName()))
                .template(SampleNginxConfTest.TEMPLATE)
                .value("APP_PORT", Integer.toString(appPort))
                .value("LIBRARY", root.toString())
                .workersRead(root)
                .start();
    }

    @AfterAll
    void stopNginx() {
        if (nginx != null) {
            nginx.close();
        }
    }
}
