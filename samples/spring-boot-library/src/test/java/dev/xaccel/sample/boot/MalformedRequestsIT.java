package dev.xaccel.sample.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.malformed.MalformedSweep;
import dev.xaccel.testsupport.malformed.MalformedSweep.Endpoint;

/**
 * {@link MalformedSweep} over every endpoint of the sample as ./demo-spring runs it (the page, Spring Security's
 * login and logout, the file list, a file, Actuator's index, health and info), anonymous and as the demo user,
 * through nginx and directly: no 5xx, no path, stack trace or server version, and no ERROR in the application's log
 * (what a client can send at will must not fill it with stack traces). The same application context as
 * {@link LibraryNginxIT} (Spring caches it).
 */
@ExtendWith(OutputCaptureExtension.class)
class MalformedRequestsIT extends LibraryBehindNginx {

    @Test
    void noEndpointAnswersMalformedRequestsWithA5xxOrAPath(CapturedOutput log) throws Exception {
        Map<String, String> demo = Map.of("Authorization",
                "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8)));
        List<Endpoint> endpoints = List.of(Endpoint.of("GET", "/"), new Endpoint("GET", "/index.html", demo),
                Endpoint.of("GET", "/login"), Endpoint.of("POST", "/login"), new Endpoint("POST", "/logout", demo),
                Endpoint.of("GET", "/files/0"), new Endpoint("GET", "/files/0", demo),
                new Endpoint("GET", "/files/999", demo), new Endpoint("GET", "/api/files", demo),
                Endpoint.of("GET", "/actuator"), Endpoint.of("GET", "/actuator/health"),
                Endpoint.of("GET", "/actuator/info"), new Endpoint("GET", "/actuator/info", demo),
                Endpoint.of("GET", "/error"));
        MalformedSweep sweep = new MalformedSweep(List.of(library.getRoot().toRealPath().toString(),
                TestPaths.target().toAbsolutePath().toString()));
        MalformedSweep.Result viaNginx = sweep.run(nginx.port(), endpoints);
        MalformedSweep.Result direct = sweep.run(appPort, endpoints);
        System.out.println("spring-boot-library malformed sweep: " + endpoints.size() + " endpoints, "
                + viaNginx.requests() + " requests through nginx " + viaNginx.statuses() + ", " + direct.requests()
                + " to the application " + direct.statuses());
        assertThat(viaNginx.findings()).as("through nginx").isEmpty();
        assertThat(direct.findings()).as("directly").isEmpty();
        assertThat(log.getAll()).as("the application's log during the sweep").doesNotContain(" ERROR ");
    }

    @Test
    void aFormThatCannotBeParsedIs400BeforeSpringSecurityLooksAtIt(CapturedOutput log) throws Exception {
        HttpRequest login = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + appPort + "/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=%zz&password=%")).build();
        HttpResponse<String> response = HttpClient.newHttpClient().send(login, HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(log.getAll()).doesNotContain(" ERROR ").doesNotContain("InvalidParameterException");
    }
}
