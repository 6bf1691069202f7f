package dev.xaccel.testsupport.nginx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.Poll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The real nginx: rendering, the port placeholders, the logs, and the stop of master and workers by PID. */
class NginxServerIT {

    static final String TEMPLATE = """
            worker_processes  2;
            pid               logs/nginx.pid;
            error_log         logs/error.log warn;
            events { worker_connections 64; }
            http {
                log_format  t  'rid="$http_x_request_id" $status $uri';
                access_log  logs/access.log  t;
                client_body_temp_path tmp/client_body;
                proxy_temp_path       tmp/proxy;
                fastcgi_temp_path     tmp/fastcgi;
                uwsgi_temp_path       tmp/uwsgi;
                scgi_temp_path        tmp/scgi;
                server {
                    listen 127.0.0.1:${NGINX_PORT};
                    location / { return 200 "${GREETING} $uri from ${PREFIX}\\n"; }
                }
                server {
                    listen 127.0.0.1:${OTHER_PORT};
                    location / { return 204; }
                }
            }
            """;

    @Test
    void rendersStartsOnFreePortsLogsAndStopsWithItsWorkers() throws Exception {
        NginxServer nginx = NginxServer.builder(TestPaths.target().resolve("nginx-selftest"))
                .template(TEMPLATE)
                .value("GREETING", "hello")
                .ports(NginxServer.NGINX_PORT, "OTHER_PORT")
                .workersRead(TestPaths.target())
                .start();
        List<ProcessHandle> workers;
        try {
            assertEquals(nginx.port(NginxServer.NGINX_PORT), nginx.port());
            assertNotEquals(nginx.port(), nginx.port("OTHER_PORT"));
            RawHttp.Response r = RawHttp.get("/x").header("X-Request-Id", "self-1").send(nginx.port());
            assertEquals(200, r.status(), r.toString());
            assertEquals("hello /x from " + nginx.prefix() + "\n", r.bodyText());
            assertEquals(204, RawHttp.get("/").send(nginx.port("OTHER_PORT")).status());
            assertTrue(nginx.awaitAccessLogLine("self-1").endsWith(" 200 /x"), nginx.accessLog().toString());
            assertTrue(Files.readString(nginx.conf()).contains("listen 127.0.0.1:" + nginx.port() + ";"));
            // The master forks its workers one after the other; the first may answer before the second exists.
            assertTrue(Poll.until(Duration.ofSeconds(10), () -> nginx.workerPids().size() == 2),
                    "workers of " + nginx.pid() + ": " + nginx.workerPids());
            workers = ProcessHandle.of(nginx.pid()).orElseThrow().children().toList();
            assertEquals(2, workers.size(), "workers of " + nginx.pid());
        } finally {
            nginx.close();
        }
        assertFalse(nginx.isAlive());
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid());
        }
    }

    @Test
    void aPlaceholderWithoutAValueIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NginxServer.builder(TestPaths.target().resolve("nginx-selftest-unknown"))
                        .template(TEMPLATE).ports(NginxServer.NGINX_PORT, "OTHER_PORT").start());
        assertTrue(e.getMessage().contains("${GREETING}"), e.getMessage());
    }

    @Test
    void aConfigurationNginxRefusesFailsWithItsMessage() {
        IOException e = assertThrows(IOException.class,
                () -> NginxServer.builder(TestPaths.target().resolve("nginx-selftest-bad"))
                        .template(TEMPLATE.replace("worker_processes  2;", "no_such_directive on;"))
                        .value("GREETING", "hello").ports(NginxServer.NGINX_PORT, "OTHER_PORT").start());
        assertTrue(e.getMessage().contains("unknown directive \"no_such_directive\""), e.getMessage());
    }
}
