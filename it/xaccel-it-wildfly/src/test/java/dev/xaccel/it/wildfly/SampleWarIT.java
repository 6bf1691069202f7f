package dev.xaccel.it.wildfly;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * The sample WAR as built deploys on WildFly as shipped and its session cookie has the attributes docs/sample.md
 * promises: WildFly leaves {@code <cookie-config>}'s SameSite out, the WAR's {@code undertow-handlers.conf} adds it.
 */
class SampleWarIT {

    @Test
    void deploysAsShippedAndItsSessionCookieIsHttpOnlyAndSameSiteLax() throws Exception {
        int port = WildFlyContainer.deployArchive("sample.war", Path.of(System.getProperty("xaccel.sample.war")));
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
            WildFlyContainer.undeployArchive("sample.war");
        }
    }
}
