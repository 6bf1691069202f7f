package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import jakarta.servlet.ServletException;

import dev.xaccel.filter.internal.config.InitParam;
import dev.xaccel.filter.internal.config.Placeholders;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.testsupport.LogCapture;
import dev.xaccel.testsupport.servlet.TestFilterConfig;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Init-param parsing through {@link XAccelFilter#init}: valid values and fail-closed errors. */
class XAccelFilterConfigTest {

    @TempDir
    static Path tmp;
    static Path media;
    static Path other;

    @BeforeAll
    static void dirs() throws IOException {
        media = Files.createDirectories(tmp.resolve("media"));
        Files.createDirectories(media.resolve("library"));
        other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(tmp.resolve("file.txt"), "x");
    }

    static Map<String, String> base() {
        Map<String, String> m = new HashMap<>();
        m.put(InitParams.LOCATIONS, media + " => /_xaccel/media/");
        m.put(InitParams.JMX_NAME, "none");
        return m;
    }

    static XAccelFilter init(Map<String, String> params) throws ServletException {
        XAccelFilter f = new XAccelFilter(null, Placeholders.of(Map.of("MEDIA", media.toString()),
                Map.of("xaccel.rate", "2048")));
        LogCapture quiet = LogCapture.exclusive(XAccelFilter.class.getPackageName());
        try {
            f.init(new TestFilterConfig("xaccel", params, null));
        } finally {
            quiet.close();
        }
        return f;
    }

    @Test
    void defaults() throws Exception {
        XAccelConfig c = init(base()).config();
        assertEquals(1, c.locations().size());
        assertEquals(media.toRealPath(), c.locations().get(0).root());
        assertEquals("/_xaccel/media/", c.locations().get(0).uriPrefix());
        assertTrue(c.mappings().isEmpty());
        assertEquals(OffloadMode.AUTO, c.offload());
        assertTrue(c.trustedProxies().matches("127.0.0.1"));
        assertTrue(c.trustedProxies().matches("::1"));
        assertFalse(c.trustedProxies().matches("10.0.0.1"));
        assertEquals("X-Sendfile-Type", c.markerHeader());
        assertEquals(HeaderType.X_ACCEL_REDIRECT, c.headerType());
        assertNull(c.limitRate());
        assertNull(c.charset());
        assertNull(c.accelExpires());
        assertNull(c.cacheControl());
        assertEquals(Disposition.INLINE, c.disposition());
        assertFalse(c.allowUnmapped());
        assertFalse(c.allowHidden());
        assertEquals(SymlinkPolicy.WITHIN_ROOT, c.symlinks());
        assertEquals("application/octet-stream", c.defaultContentType());
        assertFalse(c.sendfile(), "Tomcat's sendfile re-opens by name: opt-in for roots without untrusted writers");
        assertEquals("none", c.jmxName());
        assertEquals("default-src 'none'; style-src 'unsafe-inline'; sandbox", c.contentSecurityPolicy());
        assertEquals(2048, c.maxRedirectLength());
        assertEquals(4096, c.heldDirectories());
        assertEquals(32L * 1024 * 1024, c.smallFileCacheSize());
        assertEquals(65536, c.smallFileMaxSize());
        assertTrue(c.smallFileCache() != null, "small files from memory by default");
    }

    @Test
    void contentSecurityPolicyNoneSendsNoHeader() throws Exception {
        Map<String, String> p = base();
        p.put("contentSecurityPolicy", "None");
        XAccelFilter f = init(p);
        try {
            assertNull(f.config().contentSecurityPolicy());
            assertTrue(InitParam.describe(f.config()).contains("contentSecurityPolicy=none"),
                    InitParam.describe(f.config()));
        } finally {
            f.destroy();
        }
    }

    @Test
    void everyParamValid() throws Exception {
        Map<String, String> p = base();
        p.put("locations", "${env:MEDIA} => /_xaccel/media/ ;\n " + other + " => /_xaccel/other-1.x~/\n");
        p.put("mappings", "/library/ => ${env:MEDIA}/library\n/files/ => " + media);
        p.put("offload", "ALWAYS");
        p.put("trustedProxies", "10.0.0.0/8 fd00::/8");
        p.put("markerHeader", "X-My-Marker");
        p.put("headerType", "x-sendfile");
        p.put("limitRate", "${sys:xaccel.rate}");
        p.put("charset", "utf-8");
        p.put("accelExpires", "@1700000000");
        p.put("cacheControl", "private, max-age=60");
        p.put("disposition", "Attachment");
        p.put("allowUnmapped", "TRUE");
        p.put("allowHidden", "true");
        p.put("symlinks", "never");
        p.put("defaultContentType", "text/plain; charset=UTF-8");
        p.put("sendfile", "true");
        p.put("jmxName", "dev.xaccel:type=Test,name=x");
        p.put("contentSecurityPolicy", "sandbox");
        p.put("maxRedirectLength", "12288");
        p.put("heldDirectories", "0");
        p.put("smallFileCacheSize", "0");
        p.put("smallFileMaxSize", "1000");
        XAccelFilter f = init(p);
        try {
            XAccelConfig c = f.config();
            assertEquals(2, c.locations().size());
            assertEquals(2, c.mappings().size());
            assertEquals("/library/", c.mappings().get(0).urlPrefix(), "longest prefix first");
            assertEquals(media.toRealPath().resolve("library"), c.mappings().get(0).root());
            assertEquals(OffloadMode.ALWAYS, c.offload());
            assertTrue(c.trustedProxies().matches("10.1.1.1"));
            assertFalse(c.trustedProxies().matches("127.0.0.1"));
            assertEquals("X-My-Marker", c.markerHeader());
            assertEquals(HeaderType.X_SENDFILE, c.headerType());
            assertEquals(2048L, c.limitRate());
            assertEquals("utf-8", c.charset());
            assertEquals("@1700000000", c.accelExpires());
            assertEquals("private, max-age=60", c.cacheControl());
            assertEquals(Disposition.ATTACHMENT, c.disposition());
            assertTrue(c.allowUnmapped());
            assertTrue(c.allowHidden());
            assertEquals(SymlinkPolicy.NEVER, c.symlinks());
            assertEquals("text/plain; charset=UTF-8", c.defaultContentType());
            assertTrue(c.sendfile());
            assertEquals("dev.xaccel:type=Test,name=x", c.jmxName());
            assertEquals("sandbox", c.contentSecurityPolicy());
            assertEquals(12288, c.maxRedirectLength());
            assertEquals(0, c.heldDirectories());
            assertEquals(0, c.smallFileCacheSize());
            assertEquals(null, c.smallFileCache(), "0: off");
            assertEquals(1000, c.smallFileMaxSize());
            assertTrue(InitParam.describe(c).contains("headerType=X-Sendfile"), InitParam.describe(c));
        } finally {
            f.destroy();
        }
    }

    @Test
    void blankOptionalValuesMeanUnset() throws Exception {
        Map<String, String> p = base();
        p.put("limitRate", "${env:NO_SUCH_RATE:-}");
        p.put("cacheControl", " ");
        p.put("mappings", "");
        XAccelConfig c = init(p).config();
        assertNull(c.limitRate());
        assertNull(c.cacheControl());
        assertTrue(c.mappings().isEmpty());
    }

    @Test
    void emptyTrustedProxiesTrustsNobody() throws Exception {
        Map<String, String> p = base();
        p.put("trustedProxies", "");
        assertFalse(init(p).config().trustedProxies().matches("127.0.0.1"));
    }

    @Test
    void mappingOutsideLocationsIsFineWhenOffloadNeverOrAllowUnmapped() throws Exception {
        Map<String, String> p = base();
        p.put("mappings", "/o/ => " + other);
        p.put("offload", "never");
        assertEquals(1, init(p).config().mappings().size());
        p.put("offload", "auto");
        p.put("allowUnmapped", "true");
        assertEquals(1, init(p).config().mappings().size());
    }

    @Test
    void frontEndConfinesOnlyWithNginx() throws Exception {
        Map<String, String> p = base();
        p.put("frontEndConfines", "true");
        assertTrue(init(p).config().frontEndConfines());
        p.put("headerType", "X-Sendfile");
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[frontEndConfines]") && e.getMessage().contains("[true]"),
                e.getMessage());
        assertTrue(e.getMessage().contains("headerType=X-Sendfile"), e.getMessage());
        p.put("frontEndConfines", "false");
        assertFalse(init(p).config().frontEndConfines());
    }

    @Test
    void frontEndNginxOnlyWithXAccelRedirect() throws Exception {
        Map<String, String> p = base();
        assertEquals(FrontEnd.ANY, init(p).config().frontEnd());
        p.put("frontEnd", "nginx");
        assertEquals(FrontEnd.NGINX, init(p).config().frontEnd());
        p.put("headerType", "X-Sendfile");
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[frontEnd]") && e.getMessage().contains("[nginx]"), e.getMessage());
        assertTrue(e.getMessage().contains("headerType=X-Sendfile"), e.getMessage());
        p.put("frontEnd", "any");
        assertEquals(FrontEnd.ANY, init(p).config().frontEnd());
    }

    /** param | value | text the message must contain besides param and value (may be empty). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "offload | sometimes",
        "offload | yes",
        "limitRate | 100k",
        "limitRate | -1",
        "limitRate | 1.5",
        "limitRate | 99999999999999999999",
        "trustedProxies | 10.0.0.0/33",
        "trustedProxies | proxy.example.com",
        "markerHeader | X Sendfile",
        "markerHeader | X-Sendfile-Type:",
        "headerType | X-Accel-Redirects",
        "headerType | Location",
        "charset | utf 8",
        "accelExpires | 1h",
        "accelExpires | -5",
        "accelExpires | @",
        "cacheControl | private\u0001, max-age=1",
        "cacheControl | max-age=\u00e9",
        "disposition | download",
        "allowUnmapped | yes",
        "allowHidden | 1",
        "sendfile | on",
        "frontEndConfines | nginx",
        "frontEnd | caddy",
        "frontEnd | true",
        "contentSecurityPolicy | sand\u0001box",
        "contentSecurityPolicy | default-src \u00e9",
        "maxRedirectLength | 255",
        "maxRedirectLength | 4k",
        "maxRedirectLength | 99999999999",
        "heldDirectories | 65537",
        "heldDirectories | -1",
        "heldDirectories | 4k",
        "smallFileCacheSize | 1073741825",
        "smallFileCacheSize | 16M",
        "smallFileMaxSize | 0",
        "smallFileMaxSize | 16777217",
        "symlinks | always",
        "defaultContentType | octet-stream",
        "defaultContentType | text/plain\u0007x",
        "jmxName | not an object name",
        "jmxName | dev.xaccel:type=*",
        "limitRate | ${env:UNSET_RATE}",
        "charset | ${bogus:x}",
    })
    void invalidScalarValuesFailClosed(String param, String value) {
        Map<String, String> p = base();
        p.put(param, value);
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[" + param + "]"), e.getMessage());
        assertTrue(e.getMessage().contains(value.trim()), e.getMessage());
    }

    static List<String[]> badLocations() {
        return List.of(
                new String[] {"locations", media + " => /_xaccel/media"},             // no trailing slash
                new String[] {"locations", media + " => _xaccel/media/"},             // no leading slash
                new String[] {"locations", media + " => /_xaccel/me dia/"},           // unsafe char
                new String[] {"locations", media + " => /_xaccel/m%C3%BC/"},          // unsafe char
                new String[] {"locations", media + " => /_xaccel/../media/"},         // dot segment
                new String[] {"locations", media + " => //"},                         // empty segment
                new String[] {"locations", media + " => /"},                          // whole site
                new String[] {"locations", tmp.resolve("missing") + " => /_x/"},      // nonexistent root
                new String[] {"locations", tmp.resolve("file.txt") + " => /_x/"},     // not a directory
                new String[] {"locations", "relative/dir => /_x/"},                   // relative root
                new String[] {"locations", media + " /_x/"},                          // no arrow
                new String[] {"locations", media + " => /_a/;" + other + " => /_a/"}, // duplicate prefix
                new String[] {"locations", media + " => /_a/;" + media + "/ => /_b/"}, // duplicate root
                new String[] {"mappings", "/library => " + media},                    // no trailing slash
                new String[] {"mappings", "library/ => " + media},                    // no leading slash
                new String[] {"mappings", "/a/../ => " + media},                      // dot segment
                new String[] {"mappings", "/a;b/ => " + media},                       // path parameter
                new String[] {"mappings", "/a/ => " + media + ";/a/ => " + media},    // duplicate prefix
                new String[] {"mappings", "/a/ => " + tmp.resolve("missing")},        // nonexistent root
                new String[] {"mappings", "/o/ => " + other});                        // root under no location
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.MethodSource("badLocations")
    void invalidLocationsAndMappingsFailClosed(String param, String value) {
        Map<String, String> p = base();
        if (param.equals("mappings")) {
            p.put("mappings", value);
        } else {
            p.put("locations", value);
        }
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[" + param + "]"), e.getMessage());
    }

    @Test
    void locationsAreRequired() {
        Map<String, String> p = base();
        p.remove("locations");
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[locations]"), e.getMessage());
        p.put("locations", " ;\n ");
        assertThrows(ServletException.class, () -> init(p));
    }

    @Test
    void unknownParamsOneWarningAndInfoLine() throws Exception {
        Map<String, String> p = base();
        p.put("offLoad", "never");
        p.put("trustedProxy", "1.2.3.4");
        XAccelFilter f = new XAccelFilter(null, Placeholders.of(Map.of(), Map.of()));
        try (LogCapture log = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            f.init(new TestFilterConfig("xaccel", p, null));
            assertEquals(1, log.count(Level.WARNING, "[offLoad, trustedProxy]"));
            assertEquals(1, log.count(Level.INFO, "offload=auto"));
            assertEquals(2, log.records().size(), "exactly the warning and the info line");
        }
    }

    @Test
    void aFilterThatCannotStartSaysWhyAtSevereThroughItsOwnLogger() {
        // Tomcat's console (catalina.out) shows the root logger's records, not the context log with the exception
        Map<String, String> p = base();
        p.put(InitParams.LOCATIONS, "${env:XACCEL_UNSET_ROOT} => /_xaccel/media/");
        XAccelFilter f = new XAccelFilter(null, Placeholders.of(Map.of(), Map.of()));
        try (LogCapture log = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            ServletException e = assertThrows(ServletException.class,
                    () -> f.init(new TestFilterConfig("media", p, null)));
            assertEquals(List.of("SEVERE XAccelFilter [media] did not start: " + e.getMessage()),
                    log.messages(Level.WARNING));
            assertTrue(e.getMessage().contains("locations") && e.getMessage().contains("${env:XACCEL_UNSET_ROOT}"),
                    e.getMessage());
        }
        XAccelFilter built = XAccelFilter.builder().location(media, "/_xaccel/media/").jmxName("none").build();
        try (LogCapture log = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            assertThrows(ServletException.class, () -> built.init(new TestFilterConfig("built", p, null)));
            assertEquals(1, log.count(Level.SEVERE, "XAccelFilter [built] did not start: XAccelFilter [built] was "
                    + "configured with XAccelFilter.builder()"), log.messages(Level.ALL).toString());
        }
    }

    @Test
    @SuppressWarnings("deprecation") // the string forms of disposition and symlinks still work
    void builderConfiguresAndRejectsInitParams() throws Exception {
        XAccelFilter g0 = XAccelFilter.builder().location(media, "/_xaccel/media/").disposition(Disposition.ATTACHMENT)
                .symlinks(SymlinkPolicy.NEVER).jmxName("none").build();
        g0.init(new TestFilterConfig("typed", Map.of(), null));
        assertEquals(Disposition.ATTACHMENT, g0.config().disposition());
        assertEquals(SymlinkPolicy.NEVER, g0.config().symlinks());
        g0.destroy();
        XAccelFilter f = XAccelFilter.builder().location(media, "/_xaccel/media/")
                .mapping("/library/", media.resolve("library")).offload(OffloadMode.NEVER)
                .trustedProxies("10.0.0.1").headerType(HeaderType.X_SENDFILE).limitRate(10)
                .charset("utf-8").accelExpires("0").cacheControl("no-store").disposition(Disposition.ATTACHMENT)
                .allowUnmapped(true).allowHidden(true).symlinks(SymlinkPolicy.NEVER).defaultContentType("text/plain")
                .sendfile(false).markerHeader("X-M").jmxName("none").build();
        LogCapture quiet = LogCapture.exclusive(XAccelFilter.class.getPackageName());
        try {
            f.init(new TestFilterConfig("b", Map.of(), null));
        } finally {
            quiet.close();
        }
        XAccelConfig c = f.config();
        assertEquals(OffloadMode.NEVER, c.offload());
        assertEquals(HeaderType.X_SENDFILE, c.headerType());
        assertEquals("/library/", c.mappings().get(0).urlPrefix());
        assertEquals(10L, c.limitRate());
        assertEquals("X-M", c.markerHeader());

        XAccelFilter g = XAccelFilter.builder().location(media, "/_xaccel/media/").build();
        ServletException e = assertThrows(ServletException.class,
                () -> g.init(new TestFilterConfig("b", Map.of("offload", "never"), null)));
        assertTrue(e.getMessage().contains("offload"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"X-LIGHTTPD-send-file", "x-lighttpd-send-file"})
    void lighttpdsOwnHeaderIsRefusedAtStartupPointingToXSendfile(String value) {
        Map<String, String> p = base();
        p.put(InitParams.HEADER_TYPE, value);
        ServletException e = assertThrows(ServletException.class, () -> init(p));
        assertTrue(e.getMessage().contains("[headerType]"), e.getMessage());
        assertTrue(e.getMessage().contains("[X-LIGHTTPD-send-file]"), e.getMessage());
        assertTrue(e.getMessage().contains("mod_fastcgi") && e.getMessage().contains("use [X-Sendfile]"),
                e.getMessage());
    }

    @Test
    @SuppressWarnings("removal") // the constant stays (public API) but no filter may use it
    void lighttpdsOwnHeaderIsRefusedByTheBuilder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().location(media, "/_x/").headerType(HeaderType.X_LIGHTTPD_SEND_FILE));
        assertTrue(e.getMessage().contains("[headerType]") && e.getMessage().contains("[X-Sendfile]"),
                e.getMessage());
    }

    @Test
    void builderValidatesLikeInitParams() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().location(media, "/no-trailing-slash").build());
        assertTrue(e.getMessage().contains("[locations]"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> XAccelFilter.builder().location(media, "/_x/").limitRate(-1).build());
        assertTrue(e.getMessage().contains("[limitRate]") && e.getMessage().contains("[-1]"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> XAccelFilter.builder().build());
    }

    @Test
    void jmxRegistrationDefaultNameDuplicateAndDestroy() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Map<String, String> p = base();
        p.remove("jmxName");
        XAccelFilter a = new XAccelFilter(null, Placeholders.of(Map.of(), Map.of()));
        XAccelFilter b = new XAccelFilter(null, Placeholders.of(Map.of(), Map.of()));
        ObjectName name = new ObjectName("dev.xaccel:type=XAccelFilter,context=/,name=\"jmx,test\"");
        ObjectName second = new ObjectName(name + ",instance=2");
        try (LogCapture log = LogCapture.exclusive(XAccelFilter.class.getPackageName())) {
            a.init(new TestFilterConfig("jmx,test", p, null));
            b.init(new TestFilterConfig("jmx,test", p, null));
            assertTrue(server.isRegistered(name));
            assertTrue(server.isRegistered(second));
            assertEquals(1, log.count(Level.WARNING, "already registered"));
            assertEquals(0L, server.getAttribute(name, "Offloaded"));
            assertTrue(((String) server.getAttribute(name, "Configuration")).contains("/_xaccel/media/"));
        } finally {
            a.destroy();
            b.destroy();
        }
        assertFalse(server.isRegistered(name));
        assertFalse(server.isRegistered(second));
    }

    @Test
    void jmxNoneRegistersNothing() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        int before = server.queryNames(new ObjectName("dev.xaccel:*"), null).size();
        XAccelFilter f = init(base());
        assertEquals(before, server.queryNames(new ObjectName("dev.xaccel:*"), null).size());
        f.destroy();
    }
}
