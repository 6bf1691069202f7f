package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.XAccelFilter;
import dev.xaccel.sample.auth.AuthFilter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.descriptor.web.ServletDef;
import org.apache.tomcat.util.descriptor.web.WebXml;
import org.apache.tomcat.util.descriptor.web.WebXmlParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.xml.sax.InputSource;

/** The reference web.xml, read by Tomcat's own parser, as it will be at deployment. */
class WebXmlTest {

    static final Path FILE = Path.of("src/main/webapp/WEB-INF/web.xml");
    static String text;
    static WebXml webXml;

    @BeforeAll
    static void parse() throws Exception {
        text = Files.readString(FILE, StandardCharsets.UTF_8);
        webXml = new WebXml();
        InputSource source = new InputSource(FILE.toUri().toString());
        assertTrue(new WebXmlParser(false, false, true).parseWebXml(source, webXml, false), "web.xml does not parse");
    }

    @Test
    void everyXAccelInitParamIsDocumented() {
        for (String param : XAccelFilter.PARAMS) {
            assertTrue(text.contains("<param-name>" + param + "</param-name>"), "web.xml lacks " + param);
            assertTrue(text.contains("<!-- " + param + ":") || text.contains("<!-- " + param + " ("),
                    "no comment explains " + param);
        }
        FilterDef xaccel = webXml.getFilters().get("xaccel");
        assertEquals(XAccelFilter.class.getName(), xaccel.getFilterClass());
        assertTrue(XAccelFilter.PARAMS.containsAll(xaccel.getParameterMap().keySet()),
                xaccel.getParameterMap().toString());
    }

    @Test
    void authRunsBeforeXAccel() {
        List<String> order = webXml.getFilterMappings().stream().map(FilterMap::getFilterName).distinct().toList();
        assertEquals(List.of("auth", "xaccel"), order);
        assertEquals(AuthFilter.class.getName(), webXml.getFilters().get("auth").getFilterClass());
        FilterMap auth = webXml.getFilterMappings().iterator().next();
        assertEquals(List.of("/*"), List.of(auth.getURLPatterns()));
    }

    /**
     * Tomcat replaces ${name:-default} in web.xml with the default (system properties only), so such a
     * value would never see the environment: every placeholder must reach the application unchanged.
     */
    @Test
    void tomcatLeavesEveryPlaceholderIntact() {
        Map<String, String> params = webXml.getContextParams();
        assertEquals("${env:XACCEL_LIBRARY}", params.get(SampleApp.PARAM_LIBRARY_DIR));
        assertEquals("${env:XACCEL_DEMO_USERS}", params.get(SampleApp.PARAM_USERS));
        assertEquals("${env:XACCEL_FEED_LINK_TTL}", params.get(SampleApp.PARAM_FEED_LINK_TTL));
        Map<String, String> filter = webXml.getFilters().get("xaccel").getParameterMap();
        assertEquals("${sys:" + SampleApp.OFFLOAD_PROPERTY + "}", filter.get(InitParams.OFFLOAD));
        assertEquals("${sys:" + SampleApp.LIBRARY_PROPERTY + "}/ => /_xaccel/library/ expires=60",
                filter.get(InitParams.LOCATIONS));
        assertEquals("${sys:" + SampleApp.LINK_SECRET_PROPERTY + "}", filter.get(InitParams.SIGNED_LINK_SECRET));
        assertEquals("${sys:" + SampleApp.LINK_PREFIX_PROPERTY + "}", filter.get(InitParams.SIGNED_LINK_PREFIX));
        assertEquals("${sys:" + SampleApp.LINK_TTL_PROPERTY + "}", filter.get(InitParams.SIGNED_LINK_TTL));
        assertEquals("${sys:" + SampleApp.REMOTE_ORIGINS_PROPERTY + "}", filter.get(InitParams.REMOTE_ORIGINS));
        assertEquals("${sys:" + SampleApp.RECEIPTS_PROPERTY + "}", filter.get(InitParams.RECEIPTS));
        assertEquals(DeliveryTally.class.getName(), filter.get(InitParams.RECEIPT_LISTENER));
        for (String v : params.values()) {
            assertFalse(v.contains(":-"), v);
        }
        for (String v : filter.values()) {
            assertFalse(v.contains(":-"), v);
        }
    }

    /** Every context-param has a comment right before it that says what an empty value (the default) means. */
    @Test
    void everyContextParamIsDocumentedWithItsDefault() {
        assertEquals(java.util.Set.of(SampleApp.PARAM_LIBRARY_DIR, SampleApp.PARAM_DEMO_LIBRARY_DIR,
                SampleApp.PARAM_USERS, SampleApp.PARAM_TOKEN_MINUTES, SampleApp.PARAM_FEED_LINK_TTL),
                webXml.getContextParams().keySet());
        for (String name : webXml.getContextParams().keySet()) {
            int at = text.indexOf("<param-name>" + name + "</param-name>");
            String before = text.substring(0, at);
            String comment = before.substring(before.lastIndexOf("<!--"), before.lastIndexOf("-->"));
            assertTrue(comment.contains("Default") || comment.contains("Empty ("), name + ": " + comment);
            assertTrue(before.substring(before.lastIndexOf("-->")).contains("<context-param>"), name);
        }
        assertTrue(text.contains("86400"), "the feeds' default link lifetime");
    }

    /** The feeds are a Jersey application of their own under /feeds/*, public for auth, without xaccel. */
    @Test
    void theFeedsAreTheirOwnServletAndPublic() {
        ServletDef feeds = webXml.getServlets().get("feeds");
        assertEquals("org.glassfish.jersey.servlet.ServletContainer", feeds.getServletClass());
        assertEquals(dev.xaccel.sample.api.FeedApplication.class.getName(),
                feeds.getParameterMap().get("jakarta.ws.rs.Application"));
        assertEquals("feeds", webXml.getServletMappings().get("/feeds/*"));
        assertEquals("jersey", webXml.getServletMappings().get("/api/*"));
        assertEquals(AuthFilter.DEFAULT_PUBLIC_PATHS,
                webXml.getFilters().get("auth").getParameterMap().get(AuthFilter.PARAM_PUBLIC_PATHS));
        for (FilterMap m : webXml.getFilterMappings()) {
            if (m.getFilterName().equals("xaccel")) {
                assertTrue(List.of(m.getURLPatterns()).stream().noneMatch(u -> u.startsWith("/feeds")));
            }
        }
    }

    /** Every audio extension the library reads has its type here (the feeds' enclosure types). */
    @Test
    void everyAudioExtensionHasAMimeMapping() {
        for (String ext : Library.AUDIO) {
            String type = webXml.getMimeMappings().get(ext);
            assertTrue(type != null && type.startsWith("audio/"), ext + " => " + type);
        }
    }

    @Test
    void sessionCookieIsHttpOnlyAndSameSite() {
        assertTrue(webXml.getSessionConfig().getCookieHttpOnly());
        assertEquals("Lax", webXml.getSessionConfig().getCookieAttribute("SameSite"));
    }
}
