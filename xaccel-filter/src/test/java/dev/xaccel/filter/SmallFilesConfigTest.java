package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import dev.xaccel.filter.internal.config.InitParam;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.Placeholders;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.TestFilterConfig;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The init-params of the small-file layers: {@code expires=} per location, {@code cacheVary}, signed links. */
class SmallFilesConfigTest {

    static final String SECRET = "abcdefghijklmnopqrstuvwxyz0123456789";

    @TempDir
    static Path tmp;
    static Path media;

    @BeforeAll
    static void dirs() throws IOException {
        media = Files.createDirectories(tmp.resolve("media"));
    }

    static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put(InitParams.LOCATIONS, media + " => /_xaccel/media/");
        m.put(InitParams.JMX_NAME, "none");
        return m;
    }

    static XAccelFilter init(Map<String, String> params, ServletContext ctx) throws ServletException {
        XAccelFilter f = new XAccelFilter(null, Placeholders.of(Map.of("SECRET", SECRET), Map.of()));
        LogCapture quiet = LogCapture.exclusive(XAccelFilter.class.getPackageName());
        try {
            f.init(new TestFilterConfig("xaccel", params, ctx));
        } finally {
            quiet.close();
        }
        return f;
    }

    static ServletContext context() {
        Map<String, Object> attributes = new ConcurrentHashMap<>();
        ServletContext ctx = mock(ServletContext.class);
        when(ctx.getContextPath()).thenReturn("");
        when(ctx.getAttribute(anyString())).thenAnswer(i -> attributes.get(i.getArgument(0, String.class)));
        doAnswer(i -> attributes.put(i.getArgument(0), i.getArgument(1))).when(ctx).setAttribute(anyString(), any());
        doAnswer(i -> attributes.remove(i.getArgument(0, String.class))).when(ctx).removeAttribute(anyString());
        return ctx;
    }

    @Test
    void offByDefault() throws Exception {
        XAccelConfig c = init(base(), null).config();
        assertNull(c.locations().get(0).accelExpires(), "no caching unless asked");
        assertEquals("Cookie, Authorization", c.cacheVary());
        assertNull(c.signedLinks());
    }

    @Test
    void perLocationExpiresAndCacheVary() throws Exception {
        Path covers = Files.createDirectories(tmp.resolve("covers"));
        Map<String, String> p = base();
        p.put("locations", media + " => /_xaccel/media/\n" + covers + " => /_xaccel/covers/   expires=060");
        p.put("cacheVary", "Cookie Authorization,X-Api-Key");
        XAccelConfig c = init(p, null).config();
        Location coversLoc = c.locationFor(covers.toRealPath().resolve("x.jpg"));
        assertEquals("/_xaccel/covers/", coversLoc.uriPrefix());
        assertEquals("60", coversLoc.accelExpires());
        assertNull(c.locationFor(media.toRealPath().resolve("x")).accelExpires());
        assertNull(c.locationFor(Path.of(covers.toRealPath() + "-sibling", "x.jpg")), "no string prefix matching");
        assertNull(c.locationFor(tmp.toRealPath().resolve("x.jpg")));
        assertEquals("Cookie, Authorization, X-Api-Key", c.cacheVary());
        assertTrue(InitParam.describe(c).contains("/_xaccel/covers/ expires=60"), InitParam.describe(c));
    }

    @ParameterizedTest
    @ValueSource(strings = {"expires=-1", "expires=1m", "expires=", "expires=@1700000000", "foo=1",
            "expires=1 expires=2", "expires =1"})
    void invalidLocationOptionsFailClosed(String option) {
        Map<String, String> p = base();
        p.put("locations", media + " => /_xaccel/media/ " + option);
        ServletException e = assertThrows(ServletException.class, () -> init(p, null));
        assertTrue(e.getMessage().contains("[locations]") && e.getMessage().contains(option), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"Cookie, (x)", " , ", "*", "Cookie;Authorization"})
    void invalidCacheVaryFailsClosed(String value) {
        Map<String, String> p = base();
        p.put("cacheVary", value);
        ServletException e = assertThrows(ServletException.class, () -> init(p, null));
        assertTrue(e.getMessage().contains("[cacheVary]"), e.getMessage());
    }

    @Test
    void signedLinksArePublishedAsContextAttributeAndRemovedOnDestroy() throws Exception {
        ServletContext ctx = context();
        assertThrows(IllegalStateException.class, () -> XAccel.signedLinks(ctx));
        Map<String, String> p = base();
        p.put("signedLinkSecret", "${env:SECRET}");
        p.put("signedLinkPrefix", "/s/media/");
        p.put("signedLinkTtl", "120");
        XAccelFilter f = init(p, ctx);
        SignedLinks links = XAccel.signedLinks(ctx);
        assertSame(f.config().signedLinks(), links);
        assertEquals("/s/media/", links.prefix());
        assertEquals(120, links.ttl().getSeconds());
        assertFalse(InitParam.describe(f.config()).contains(SECRET),
                "the effective configuration never shows the secret");
        assertFalse(f.config().toString().contains(SECRET), "nor does the record's own toString");
        ServletException twice = assertThrows(ServletException.class, () -> init(p, ctx));
        assertTrue(twice.getMessage().contains(SignedLinks.CONTEXT_ATTRIBUTE), twice.getMessage());
        f.destroy();
        assertThrows(IllegalStateException.class, () -> XAccel.signedLinks(ctx));
    }

    @Test
    void failedInitLeavesNoSignedLinksAttribute() {
        ServletContext ctx = context();
        when(ctx.getContextPath()).thenThrow(new IllegalStateException("context gone"));
        Map<String, String> p = base();
        p.remove(InitParams.JMX_NAME); // the default MBean name needs the context path
        p.put("signedLinkSecret", "${env:SECRET}");
        p.put("signedLinkPrefix", "/s/media/");
        assertThrows(IllegalStateException.class, () -> init(p, ctx));
        assertThrows(IllegalStateException.class, () -> XAccel.signedLinks(ctx));
    }

    @Test
    void signedLinkParamsFailClosed() {
        Map<String, String> shortSecret = base();
        shortSecret.put("signedLinkSecret", "short-secret-of-31-characters-x");
        shortSecret.put("signedLinkPrefix", "/s/");
        ServletException e = assertThrows(ServletException.class, () -> init(shortSecret, null));
        assertTrue(e.getMessage().contains("[signedLinkSecret]") && e.getMessage().contains("32"), e.getMessage());
        assertFalse(e.getMessage().contains("short-secret"), "never echo the secret: " + e.getMessage());

        Map<String, String> noPrefix = base();
        noPrefix.put("signedLinkSecret", SECRET);
        e = assertThrows(ServletException.class, () -> init(noPrefix, null));
        assertTrue(e.getMessage().contains("[signedLinkPrefix]"), e.getMessage());

        Map<String, String> noSecret = base();
        noSecret.put("signedLinkPrefix", "/s/");
        e = assertThrows(ServletException.class, () -> init(noSecret, null));
        assertTrue(e.getMessage().contains("[signedLinkSecret]"), e.getMessage());

        Map<String, String> unresolved = base();
        unresolved.put("signedLinkSecret", "${env:XACCEL_UNSET_SECRET}");
        unresolved.put("signedLinkPrefix", "/s/");
        e = assertThrows(ServletException.class, () -> init(unresolved, null));
        assertTrue(e.getMessage().contains("[signedLinkSecret]"), e.getMessage());

        for (String[] bad : new String[][] {{"signedLinkPrefix", "/s"}, {"signedLinkPrefix", "/s/../"},
                {"signedLinkTtl", "0"}, {"signedLinkTtl", "1h"}}) {
            Map<String, String> p = base();
            p.put("signedLinkSecret", SECRET);
            p.put("signedLinkPrefix", "/s/");
            p.put(bad[0], bad[1]);
            e = assertThrows(ServletException.class, () -> init(p, null), bad[0] + "=" + bad[1]);
            assertTrue(e.getMessage().contains("[" + bad[0] + "]"), e.getMessage());
        }
    }

    @Test
    void builder() throws Exception {
        XAccelFilter f = XAccelFilter.builder().location(media, "/_xaccel/media/", 30)
                .cacheVary("Authorization").signedLinks(SECRET, "/s/media/", 60).jmxName("none").build();
        f.init(new TestFilterConfig("built", Map.of(), null));
        XAccelConfig c = f.config();
        assertEquals("30", c.locations().get(0).accelExpires());
        assertEquals("Authorization", c.cacheVary());
        assertEquals(60, c.signedLinks().ttl().getSeconds());
        assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().location(media, "/_xaccel/media/", -1));
        assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().location(media, "/_x/").signedLinks("short", "/s/", 60).build());
    }
}
