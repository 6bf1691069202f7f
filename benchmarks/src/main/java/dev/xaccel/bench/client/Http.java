package dev.xaccel.bench.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

import dev.xaccel.bench.run.BenchFailure;

/**
 * HTTP/1.1 GETs for the checks and the stats endpoint (the measurements use wrk and curl). Never follows
 * redirects; a connection failure is a {@link BenchFailure} naming the URL.
 */
public final class Http {

    /** One answer: its status and the whole response (headers, body). */
    public record Answer(int status, HttpResponse<byte[]> response) {
        public byte[] body() {
            return response.body();
        }

        public Optional<String> header(String name) {
            return response.headers().firstValue(name);
        }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    /** GET with headers given as name, value, name, value ... */
    public Answer get(String url, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).GET();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(r.statusCode(), r);
        } catch (IOException e) {
            throw new BenchFailure("GET " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BenchFailure("interrupted: GET " + url);
        }
    }

    public int status(String url, String... headers) {
        return get(url, headers).status();
    }

    /** True when something answers HTTP at the URL (any status). */
    boolean answers(String url) {
        try {
            get(url);
            return true;
        } catch (BenchFailure e) {
            return false;
        }
    }
}
