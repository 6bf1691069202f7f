package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Configuration;
import jakarta.ws.rs.core.Context;

import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.jaxrs.XAccelFeature;
import dev.xaccel.testsupport.CloseAll;
import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.BearerAuthFilter;
import dev.xaccel.testsupport.servlet.ServletContainer;
import dev.xaccel.testsupport.servlet.SuiteApp;
import dev.xaccel.testsupport.servlet.WarDeclared;

/**
 * The JAX-RS {@link XAccelFeature} under Eclipse Jersey in this container: resource methods that return a
 * {@link java.nio.file.Path}, a {@link java.io.File} and an {@link XAccelFile}, served directly (no marker) and
 * offloaded (through the front end), behind the auth filter and the XAccelFilter declared as web.xml would. Not an
 * {@code *IT}: a module that has Jersey runs it with a subclass of its own (Jersey 4 in Tomcat 11, the Jersey 3.1
 * GlassFish 7 ships).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class JaxRsSuite {

    private static final AtomicInteger IDS = new AtomicInteger();

    private MediaFixture media;
    private ServletContainer container;
    private int port;
    private FrontEnd frontEnd;

    /** The application's property (a servlet init-param in a WAR): the media root. */
    static final String ROOT = "xaccel.test.mediaRoot";

    /** The application's resource: files of the media root by name. */
    @Path("/")
    public static final class Files {
        private final java.nio.file.Path root;

        public Files(@Context Configuration config) {
            this.root = java.nio.file.Path.of((String) config.getProperty(ROOT));
        }

        @GET
        @Path("path/{name}")
        public java.nio.file.Path path(@PathParam("name") String name) {
            return root.resolve(name);
        }

        @GET
        @Path("file/{name}")
        public java.io.File file(@PathParam("name") String name) {
            return root.resolve(name).toFile();
        }

        @GET
        @Path("attachment/{name}")
        @Produces("audio/mpeg")
        public XAccelFile attachment(@PathParam("name") String name) {
            return XAccelFile.of(root.resolve(name)).downloadName("Track 1.mp3").attachment();
        }
    }

    /**
     * Jersey's servlet with {@link XAccelFeature} and {@link Files}: given the media root in this JVM, or declared
     * in a WAR's web.xml with both as init-params (Jersey makes them the application's properties).
     */
    public static final class Api extends org.glassfish.jersey.servlet.ServletContainer implements WarDeclared {

        private static final long serialVersionUID = 1L;
        private final transient java.nio.file.Path root;

        public Api() {
            this.root = null;
        }

        Api(java.nio.file.Path root) {
            super(new ResourceConfig().register(XAccelFeature.class).register(Files.class)
                    .property(ROOT, root.toString()));
            this.root = root;
        }

        @Override
        public Map<String, String> warParams(java.nio.file.Path dir) {
            return Map.of(ServerProperties.PROVIDER_CLASSNAMES, XAccelFeature.class.getName() + ","
                    + Files.class.getName(), ROOT, root.toString());
        }
    }

    @BeforeAll
    void start() throws Exception {
        media = MediaFixture.create("jaxrs");
        FrontEnd.Factory kind = SuiteEnvironment.frontEnd();
        Map<String, String> params = DeliveryStack.baseParams(kind, media, "jaxrs");
        container = SuiteEnvironment.container().create("jaxrs", false);
        port = container.start(SuiteApp.app(new BearerAuthFilter())
                .xaccelFilter(params)
                .servlet("/api/*", new Api(media.media)));
        frontEnd = kind.start("jaxrs", port, media.media);
    }

    @AfterAll
    void stop() {
        CloseAll.of(frontEnd, container);
    }

    @Test
    void aReturnedPathIsServedDirectlyWithRanges() {
        byte[] big = media.content("big.bin");
        RawHttp.Response whole = SuiteApp.authGet("/api/path/big.bin").send(port);
        assertEquals(200, whole.status(), whole.toString());
        assertEquals(MediaFixture.sha256(big), MediaFixture.sha256(whole.body()));
        assertEquals("bytes", whole.header("Accept-Ranges"));
        RawHttp.Response part = SuiteApp.authGet("/api/path/big.bin").header("Range", "bytes=100-199").send(port);
        assertEquals(206, part.status(), part.toString());
        assertArrayEquals(Arrays.copyOfRange(big, 100, 200), part.body());
        DeliverySuite.assertNoAccelHeaders(part);
    }

    @Test
    void aReturnedFileIsServedDirectly() {
        RawHttp.Response r = SuiteApp.authGet("/api/file/song.mp3").send(port);
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content("song.mp3"), r.body());
        assertEquals("bytes", r.header("Accept-Ranges"));
        DeliverySuite.assertNoAccelHeaders(r);
    }

    @Test
    void aReturnedXAccelFileKeepsItsTypeAndName() {
        RawHttp.Response r = SuiteApp.authGet("/api/attachment/song.mp3").send(port);
        assertEquals(200, r.status(), r.toString());
        assertArrayEquals(media.content("song.mp3"), r.body());
        assertEquals("audio/mpeg", DeliverySuite.mediaType(r));
        assertTrue(r.header("Content-Disposition").startsWith("attachment"), r.toString());
        assertTrue(r.header("Content-Disposition").contains("Track"), r.toString());
    }

    @Test
    void throughTheFrontEndBothAreOffloaded() {
        String[] targets = {"/api/path/big.bin", "/api/file/song.mp3", "/api/attachment/song.mp3"};
        for (String target : targets) {
            String id = "jaxrs-" + IDS.incrementAndGet();
            RawHttp.Response r = SuiteApp.authGet(target).header("X-Request-Id", id).send(frontEnd.port());
            assertEquals(200, r.status(), r.toString());
            String name = target.substring(target.lastIndexOf('/') + 1);
            assertArrayEquals(media.content(name), r.body(), target);
            FrontEnd.Delivery d = frontEnd.delivery(id);
            assertTrue(d.offloaded(), d.logLine());
            assertFalse(d.backendSentBody(), d.logLine());
            DeliverySuite.assertNoAccelHeaders(r);
        }
    }

    @Test
    void withoutAuthorizationTheResourceIsNeverCalled() {
        RawHttp.Response r = RawHttp.get("/api/path/big.bin").send(frontEnd.port());
        assertEquals(401, r.status(), r.toString());
        assertTrue(r.body().length < 1024);
    }
}
