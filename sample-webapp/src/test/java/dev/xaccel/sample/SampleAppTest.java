package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.filter.SignedLinks;
import dev.xaccel.sample.auth.FeedTokens;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextEvent;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The listener's part in the podcast feeds: a second SignedLinks, made once the filter accepted the secret. */
class SampleAppTest {

    static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyzABCD";
    static final List<String> PROPERTIES = List.of(SampleApp.LIBRARY_PROPERTY, SampleApp.OFFLOAD_PROPERTY,
            SampleApp.LIMIT_RATE_PROPERTY, SampleApp.LINK_SECRET_PROPERTY, SampleApp.LINK_PREFIX_PROPERTY,
            SampleApp.LINK_TTL_PROPERTY);

    @TempDir
    Path library;
    final Map<String, String> saved = new HashMap<>();
    final Map<String, Object> attributes = new HashMap<>();
    final Map<String, String> params = new HashMap<>();

    @BeforeEach
    void setUp() throws IOException {
        for (String p : PROPERTIES) {
            saved.put(p, System.getProperty(p));
            System.clearProperty(p);
        }
        Files.createDirectories(library.resolve("A/T"));
        Files.writeString(library.resolve("A/T/a.mp3"), "not really audio");
        params.put(SampleApp.PARAM_LIBRARY_DIR, library.toString());
    }

    @AfterEach
    void restore() {
        saved.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
    }

    private ServletContext context() {
        return (ServletContext) Proxy.newProxyInstance(ServletContext.class.getClassLoader(),
                new Class<?>[] {ServletContext.class}, (p, m, args) -> switch (m.getName()) {
                    case "getInitParameter" -> params.get((String) args[0]);
                    case "getAttribute" -> attributes.get((String) args[0]);
                    case "setAttribute" -> attributes.put((String) args[0], args[1]);
                    case "removeAttribute" -> attributes.remove((String) args[0]);
                    default -> null;
                });
    }

    /** What the xaccel filter does when it starts with a secret: publish its SignedLinks. */
    private static void filterPublishes(SampleApp app, ServletContext ctx) {
        SignedLinks links = SignedLinks.create(SECRET, SampleApp.LINK_PREFIX, Duration.ofHours(1));
        ctx.setAttribute(SignedLinks.CONTEXT_ATTRIBUTE, links);
        app.attributeAdded(new ServletContextAttributeEvent(ctx, SignedLinks.CONTEXT_ATTRIBUTE, links));
    }

    @Test
    void withSignedLinksTheFeedsGetTheirOwnPrefixAndLifetime() {
        System.setProperty(SampleApp.LINK_SECRET_PROPERTY, SECRET);
        SampleApp app = new SampleApp();
        ServletContext ctx = context();
        app.contextInitialized(new ServletContextEvent(ctx));
        assertTrue(attributes.get(SampleApp.ATTR_FEED_TOKENS) instanceof FeedTokens);
        assertNull(attributes.get(SampleApp.ATTR_FEED_LINKS), "not before the filter has accepted the secret");

        filterPublishes(app, ctx);
        SignedLinks feeds = (SignedLinks) attributes.get(SampleApp.ATTR_FEED_LINKS);
        assertEquals(SampleApp.FEED_LINK_PREFIX, feeds.prefix());
        assertEquals(Duration.ofDays(1), feeds.ttl());
        assertTrue(feeds.sign("A/T/a.mp3").startsWith("/f/library/A/T/a.mp3?md5="));

        SignedLinks covers = (SignedLinks) attributes.remove(SignedLinks.CONTEXT_ATTRIBUTE);
        app.attributeRemoved(new ServletContextAttributeEvent(ctx, SignedLinks.CONTEXT_ATTRIBUTE, covers));
        assertNull(attributes.get(SampleApp.ATTR_FEED_LINKS), "the filter stopped: no feeds either");
    }

    @Test
    void theFeedLinkLifetimeIsAContextParam() {
        System.setProperty(SampleApp.LINK_SECRET_PROPERTY, SECRET);
        params.put(SampleApp.PARAM_FEED_LINK_TTL, "600");
        SampleApp app = new SampleApp();
        ServletContext ctx = context();
        app.contextInitialized(new ServletContextEvent(ctx));
        filterPublishes(app, ctx);
        assertEquals(Duration.ofMinutes(10), ((SignedLinks) attributes.get(SampleApp.ATTR_FEED_LINKS)).ttl());
    }

    @Test
    void aBadLifetimeStopsTheApplicationNamingTheParam() {
        for (String bad : List.of("0", "-5", "1d", "86400s")) {
            params.put(SampleApp.PARAM_FEED_LINK_TTL, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new SampleApp().contextInitialized(new ServletContextEvent(context())), bad);
            assertTrue(e.getMessage().contains(SampleApp.PARAM_FEED_LINK_TTL), e.getMessage());
        }
    }

    @Test
    void withoutSignedLinksThereAreNoFeeds() {
        SampleApp app = new SampleApp();
        ServletContext ctx = context();
        app.contextInitialized(new ServletContextEvent(ctx));
        app.attributeAdded(new ServletContextAttributeEvent(ctx, "something else", "x"));
        assertNull(attributes.get(SampleApp.ATTR_FEED_LINKS));
        assertEquals("", System.getProperty(SampleApp.LINK_SECRET_PROPERTY));
    }
}
