package dev.xaccel.sample;

import dev.xaccel.testsupport.JdkHttp;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The ITs' HTTP calls by absolute URL (nginx's, Tomcat's, and the links they hand out), through the shared
 * {@link JdkHttp} (no cookies kept: each call says what it sends); and the sample's form and JSON helpers.
 */
final class Http {

    private final JdkHttp client = new JdkHttp();

    HttpResponse<byte[]> get(String url, String... headers) throws IOException, InterruptedException {
        return client.send("GET", URI.create(url), HttpRequest.BodyPublishers.noBody(), headers);
    }

    /** A POST of an {@code application/x-www-form-urlencoded} body ({@link #form}). */
    HttpResponse<byte[]> post(String url, String form, String... headers) throws IOException, InterruptedException {
        String[] all = Arrays.copyOf(headers, headers.length + 2);
        all[headers.length] = "Content-Type";
        all[headers.length + 1] = "application/x-www-form-urlencoded";
        return client.send("POST", URI.create(url), HttpRequest.BodyPublishers.ofString(form), all);
    }

    HttpResponse<byte[]> delete(String url, String... headers) throws IOException, InterruptedException {
        return client.send("DELETE", URI.create(url), HttpRequest.BodyPublishers.noBody(), headers);
    }

    static String form(String... pairs) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            if (sb.length() > 0) {
                sb.append('&');
            }
            sb.append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    static JsonObject object(HttpResponse<byte[]> r) {
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(r.body()))) {
            return reader.readObject();
        }
    }

    static JsonArray array(HttpResponse<byte[]> r) {
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(r.body()))) {
            return reader.readArray();
        }
    }

    static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }
}
