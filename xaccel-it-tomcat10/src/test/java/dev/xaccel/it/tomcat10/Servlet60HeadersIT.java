package dev.xaccel.it.tomcat10;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.testsupport.RawHttp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.util.ServerInfo;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On Servlet 6.0 (Tomcat 10.1) {@code setHeader(name, null)} removes nothing. Headers that downstream code set
 * before declaring the file (validators of its own, a range, a compressing filter's Content-Encoding) must still
 * be gone from the answer, offloaded and served directly, and the outer filters' headers must stay.
 */
class Servlet60HeadersIT {

    static final byte[] DATA = new byte[70_000];

    @TempDir
    static Path tmp;
    static Path media;
    static Tomcat tomcat;
    static int port;

    /** Sets stale validators, a range and an encoding, then declares the file. */
    static final class StaleHeadersServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setHeader("ETag", "\"stale\"");
            resp.setDateHeader("Last-Modified", 0);
            resp.setHeader("Content-Range", "bytes 0-0/1");
            resp.setHeader("Accept-Ranges", "none");
            resp.setHeader("Content-Encoding", "gzip");
            resp.setHeader("X-Outer", "kept");
            XAccel.sendFile(req, resp, XAccelFile.of(media.resolve("data.bin")));
        }
    }

    @BeforeAll
    static void start() throws Exception {
        new Random(7).nextBytes(DATA);
        media = Files.createDirectories(tmp.resolve("media")).toRealPath();
        Files.write(media.resolve("data.bin"), DATA);
        tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createDirectories(tmp.resolve("tomcat")).toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        context("/direct", "never");
        context("/offload", "always");
        tomcat.start();
        port = connector.getLocalPort();
    }

    static void context(String path, String offload) throws IOException {
        Context ctx = tomcat.addContext(path, Files.createDirectories(tmp.resolve("d" + path.substring(1))).toString());
        if (ctx instanceof org.apache.catalina.core.StandardContext std) {
            // leak detection at stop needs --add-opens and only warns about the test JVM itself
            std.setClearReferencesObjectStreamClassCaches(false);
            std.setClearReferencesThreadLocals(false);
            std.setClearReferencesRmiTargets(false);
        }
        FilterDef def = new FilterDef();
        def.setFilterName("xaccel");
        def.setFilterClass("dev.xaccel.filter.XAccelFilter");
        Map.of("locations", media + "/ => /_xaccel/media/", "offload", offload, "jmxName", "none")
                .forEach(def::addInitParameter);
        ctx.addFilterDef(def);
        FilterMap map = new FilterMap();
        map.setFilterName("xaccel");
        map.addURLPattern("/*");
        ctx.addFilterMap(map);
        Tomcat.addServlet(ctx, "stale", new StaleHeadersServlet());
        ctx.addServletMappingDecoded("/stale", "stale");
    }

    @AfterAll
    static void stop() throws Exception {
        if (tomcat != null) {
            tomcat.stop();
            tomcat.destroy();
        }
    }

    @Test
    void runsOnServlet60() {
        assertTrue(ServerInfo.getServerNumber().startsWith("10.1."), ServerInfo.getServerInfo());
        jakarta.servlet.ServletContext ctx = ((Context) tomcat.getHost().findChild("/direct")).getServletContext();
        assertEquals("6.0", ctx.getMajorVersion() + "." + ctx.getMinorVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/direct", "/offload"})
    void headersSetBeforeTheDeclarationAreGone(String context) {
        RawHttp.Response r = RawHttp.get(context + "/stale").send(port);
        assertEquals(200, r.status(), r.toString());
        assertNotEquals("\"stale\"", r.header("ETag"), r.toString());
        assertNull(r.header("Content-Range"), r.toString());
        assertNull(r.header("Content-Encoding"), r.toString());
        assertEquals("kept", r.header("X-Outer"), r.toString());
        if (context.equals("/direct")) {
            assertArrayEquals(DATA, r.body());
            assertEquals("bytes", r.header("Accept-Ranges"));
            assertNotEquals("Thu, 01 Jan 1970 00:00:00 GMT", r.header("Last-Modified"));
        } else {
            assertEquals("/_xaccel/media/data.bin", r.header("X-Accel-Redirect"));
            assertNull(r.header("ETag"), r.toString());
            assertNull(r.header("Last-Modified"), r.toString());
            assertNull(r.header("Accept-Ranges"), r.toString());
        }
    }
}
