package dev.xaccel.it.openliberty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import dev.xaccel.testsupport.Ports;

/**
 * The sample WAR as built deploys on Open Liberty (servlet-6.0) as shipped, its web.xml declaring 6.0 (Liberty
 * refuses 6.1 there), and its session cookie has the attributes docs/sample.md promises.
 */
class SampleWarIT {

    @Test
    void deploysAsShippedAndItsSessionCookieIsHttpOnlyAndSameSiteLax() throws Exception {
        OpenLibertyContainer liberty = (OpenLibertyContainer) new OpenLibertyContainer.Factory().create("sample",
                false);
        int port = Ports.freeLoopbackPort();
        liberty.deploy("sample", port, Path.of(System.getProperty("xaccel.sample.war")));
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/login"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("user=demo&password=demo")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            String cookie = r.headers().firstValue("Set-Cookie").orElse("");
            assertTrue(cookie.startsWith("JSESSIONID=") && cookie.contains("; HttpOnly")
                    && cookie.contains("; SameSite=Lax"), cookie);
        } finally {
            liberty.undeploy("sample");
        }
    }
}
