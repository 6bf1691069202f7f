package dev.xaccel.testsupport.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.testsupport.JdkHttp;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.servlet.WebApp;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Two applications as web.xml would declare them, the filters in order, by instance and by class name. */
class EmbeddedTomcatIT {

    static EmbeddedTomcat tomcat;
    static JdkHttp http;

    /** Appends its name (an instance) or its init-param {@code tag} (declared by class) to X-Chain. */
    public static final class Tagging implements Filter {
        private String tag;

        public Tagging() {
        }

        Tagging(String tag) {
            this.tag = tag;
        }

        @Override
        public void init(FilterConfig config) {
            if (tag == null) {
                tag = config.getInitParameter("tag");
            }
        }

        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
                throws IOException, ServletException {
            HttpServletResponse resp = (HttpServletResponse) response;
            String before = resp.getHeader("X-Chain");
            resp.setHeader("X-Chain", (before == null ? "" : before + ",") + tag + ":" + request.getDispatcherType());
            chain.doFilter(request, response);
        }
    }

    static final class Hello extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            if (req.getParameter("async") != null && req.getDispatcherType() == DispatcherType.REQUEST) {
                AsyncContext async = req.startAsync();
                async.dispatch(req.getServletPath() + req.getPathInfo());
                return;
            }
            resp.setContentType(req.getServletContext().getMimeType(req.getPathInfo()));
            resp.getWriter().write("hello " + req.getContextPath() + req.getPathInfo());
        }
    }

    @BeforeAll
    static void start() {
        tomcat = EmbeddedTomcat.builder(TestPaths.freshDir("tomcat-selftest"))
                .webapp(WebApp.root()
                        .filter("outer", new Tagging("outer"))
                        .filter("declared", Tagging.class.getName(), Map.of("tag", "declared"),
                                DispatcherType.REQUEST, DispatcherType.ASYNC)
                        .servlet("/hello/*", new Hello())
                        .mimeMapping("xat", "application/x-test"))
                .webapp(WebApp.at("/other").containerMimeMappings().servlet("/hello/*", new Hello()))
                .start();
        http = new JdkHttp(tomcat.port());
    }

    @AfterAll
    static void stop() {
        tomcat.close();
    }

    @Test
    void filtersRunInTheDeclaredOrderForTheirDispatcherTypes() throws Exception {
        HttpResponse<byte[]> r = http.get("/hello/a.xat");
        assertEquals(200, r.statusCode());
        assertEquals("hello /a.xat", new String(r.body(), StandardCharsets.UTF_8));
        assertEquals("outer:REQUEST,declared:REQUEST", r.headers().firstValue("X-Chain").orElse(null));
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/x-test"));
        HttpResponse<byte[]> async = http.get("/hello/b.xat?async=1");
        assertEquals("outer:REQUEST,declared:REQUEST,declared:ASYNC",
                async.headers().firstValue("X-Chain").orElse(null));
    }

    @Test
    void theDefaultServletIsA404AndEveryContextHasItsOwnMimeMappings() throws Exception {
        RawHttp.Response missing = RawHttp.get("/nothing/here").send(tomcat.port());
        assertEquals(404, missing.status());
        assertEquals("not found\n", missing.bodyText());
        assertEquals("outer:REQUEST,declared:REQUEST", missing.header("X-Chain"));
        HttpResponse<byte[]> other = http.get("/other/hello/c.pdf");
        assertEquals("hello /other/c.pdf", new String(other.body(), StandardCharsets.UTF_8));
        assertTrue(other.headers().firstValue("Content-Type").orElse("").startsWith("application/pdf"));
        assertEquals("/other", tomcat.context("/other").getPath());
    }
}
