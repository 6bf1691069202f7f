package dev.xaccel.sample;

import dev.xaccel.sample.auth.FeedTokens;
import dev.xaccel.sample.auth.TokenStore;
import dev.xaccel.sample.auth.Users;
import dev.xaccel.sample.demolib.DemoLibrary;
import dev.xaccel.filter.SignedLinks;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the sample: resolves the context-params, generates the demo library when no library is
 * configured, scans the library, and publishes it (and the users and tokens) as context attributes.
 *
 * <p>Listeners run before filters are initialised, so this also publishes the library's real path as the
 * system property {@value #LIBRARY_PROPERTY}, which web.xml's xaccel filter init-params reference as
 * {@code ${sys:xaccel.sample.library}}, and the offload mode (environment variable {@code XACCEL_OFFLOAD},
 * default {@code auto}) as {@value #OFFLOAD_PROPERTY} and the download rate limit ({@code XACCEL_LIMIT_RATE},
 * default 0 = unlimited) as {@value #LIMIT_RATE_PROPERTY}. An application with a fixed library writes its path
 * there instead. Why system properties and not {@code ${env:NAME:-default}} in web.xml: Tomcat replaces
 * {@code ${name:-default}} in web.xml itself while parsing (system properties only), so the default would
 * always win before the filter sees the value.
 *
 * <p>A library in an S3 store: a {@code libraryDir} of the form {@code s3://bucket/prefix} (e.g.
 * {@code XACCEL_LIBRARY=s3://media/audiobooks}) is an {@link S3Library}, configured by the environment variables
 * {@code XACCEL_S3_ENDPOINT}, {@code XACCEL_S3_REGION}, {@code XACCEL_S3_ACCESS_KEY}, {@code XACCEL_S3_SECRET_KEY},
 * {@code XACCEL_S3_PATH_STYLE} and {@code XACCEL_S3_PRESIGN_SECONDS} ({@link S3Library.Config}). Then the store's
 * origin is published as {@value #REMOTE_ORIGINS_PROPERTY} (the filter's {@code remoteOrigins}; empty for a library
 * on disk), the filter's location is an empty local directory ({@value #NO_LOCAL_FILES} below
 * {@code java.io.tmpdir}), and signed links stay off (they name local files that nginx opens).
 *
 * <p>Signed cover links: when the environment variable {@value #LINK_SECRET_ENV} (or the system property
 * {@value #LINK_SECRET_PROPERTY}) holds a secret and offload is not {@code never}, this publishes the secret, the
 * prefix {@value #LINK_PREFIX} and the lifetime ({@value #LINK_TTL_ENV}, default {@value #DEFAULT_LINK_TTL} s) as
 * {@value #LINK_SECRET_PROPERTY}, {@value #LINK_PREFIX_PROPERTY} and {@value #LINK_TTL_PROPERTY} for the filter's
 * {@code signedLinkSecret}, {@code signedLinkPrefix} and {@code signedLinkTtl}; otherwise all three are empty
 * (signed links off: the filter accepts none of them without a secret). A secret taken from the environment is
 * removed from the system properties again as soon as the filter has published its
 * {@link SignedLinks} (this class also listens to context attributes for that).
 *
 * <p>Podcast feeds: once the filter has published its {@link SignedLinks} (so the secret is valid and signed links
 * are on), this creates a second instance with the same secret for the feeds' enclosures, prefix
 * {@value #FEED_LINK_PREFIX} and the lifetime of the context-param {@value #PARAM_FEED_LINK_TTL} (default
 * {@value #DEFAULT_FEED_LINK_TTL} s), and publishes it as {@value #ATTR_FEED_LINKS}; without signed links there is
 * none, and no feeds. The feed tokens ({@link FeedTokens}) are published as {@link #ATTR_FEED_TOKENS}.
 */
public final class SampleApp implements ServletContextListener, ServletContextAttributeListener {

    /** Context-param: the library root; empty means "use the demo library". */
    public static final String PARAM_LIBRARY_DIR = "libraryDir";
    /** Context-param: where the demo library is generated when {@code libraryDir} is empty. */
    public static final String PARAM_DEMO_LIBRARY_DIR = "demoLibraryDir";
    /** Context-param: users, {@code name:password[:admin]} separated by commas. */
    public static final String PARAM_USERS = "users";
    /** Context-param: lifetime of a bearer token in minutes (default 480). */
    public static final String PARAM_TOKEN_MINUTES = "tokenMinutes";
    /**
     * Context-param: minimum lifetime in seconds of the signed links in podcast feeds (enclosures, the feed's
     * image); default {@value #DEFAULT_FEED_LINK_TTL}. A link expires between 1x and 2x this from the fetch.
     */
    public static final String PARAM_FEED_LINK_TTL = "feedLinkTtl";
    public static final String DEFAULT_FEED_LINK_TTL = "86400";
    /** The public location of the feeds' signed enclosure links; the shipped nginx config verifies it. */
    public static final String FEED_LINK_PREFIX = "/f/library/";

    /** System property set to the library's real path before the filters start. */
    public static final String LIBRARY_PROPERTY = "xaccel.sample.library";
    /**
     * System property set to the filter's {@code remoteOrigins} before the filters start: the store's origin for a
     * library in S3, empty (every remote object refused) for a library on disk.
     */
    public static final String REMOTE_ORIGINS_PROPERTY = "xaccel.sample.remoteOrigins";
    /** The empty directory below {@code java.io.tmpdir} the filter's location names for a library in S3. */
    public static final String NO_LOCAL_FILES = "xaccel-sample-no-local-files";
    /** System property set to the filter's offload mode before the filters start. */
    public static final String OFFLOAD_PROPERTY = "xaccel.sample.offload";
    /** Environment variable read for {@link #OFFLOAD_PROPERTY}; default {@value #DEFAULT_OFFLOAD}. */
    public static final String OFFLOAD_ENV = "XACCEL_OFFLOAD";
    public static final String DEFAULT_OFFLOAD = "auto";
    /** System property set to the filter's limitRate (bytes/s, 0 = unlimited) before the filters start. */
    public static final String LIMIT_RATE_PROPERTY = "xaccel.sample.limitRate";
    /** Environment variable read for {@link #LIMIT_RATE_PROPERTY}; default {@value #DEFAULT_LIMIT_RATE}. */
    public static final String LIMIT_RATE_ENV = "XACCEL_LIMIT_RATE";
    public static final String DEFAULT_LIMIT_RATE = "0";
    /** The filter's receipts: {@code ${sys:xaccel.sample.receipts}}, from XACCEL_RECEIPTS. */
    public static final String RECEIPTS_PROPERTY = "xaccel.sample.receipts";
    /** {@code 127.0.0.1:PORT} behind nginx (the port of its receipt lines), {@code direct} or {@code off}. */
    public static final String RECEIPTS_ENV = "XACCEL_RECEIPTS";
    /** Without nginx: receipts of what the filter sends itself. */
    public static final String DEFAULT_RECEIPTS = "direct";
    /** Environment variable holding the signed-link secret shared with nginx; unset = signed links off. */
    public static final String LINK_SECRET_ENV = "XACCEL_LINK_SECRET";
    /** System property for the filter's {@code signedLinkSecret} (empty = off). */
    public static final String LINK_SECRET_PROPERTY = "xaccel.sample.linkSecret";
    /** System property for the filter's {@code signedLinkPrefix} (empty when signed links are off). */
    public static final String LINK_PREFIX_PROPERTY = "xaccel.sample.linkPrefix";
    /** The public location of signed cover links; the shipped nginx config verifies it. */
    public static final String LINK_PREFIX = "/s/library/";
    /** System property for the filter's {@code signedLinkTtl} (empty when signed links are off). */
    public static final String LINK_TTL_PROPERTY = "xaccel.sample.linkTtl";
    /** Environment variable: lifetime of signed links in seconds; default {@value #DEFAULT_LINK_TTL}. */
    public static final String LINK_TTL_ENV = "XACCEL_LINK_TTL";
    public static final String DEFAULT_LINK_TTL = "3600";
    /** Users when the context-param is empty: the documented demo user. */
    public static final String DEFAULT_USERS = "demo:demo:admin";

    public static final String ATTR_LIBRARY = Library.class.getName();
    public static final String ATTR_USERS = Users.class.getName();
    public static final String ATTR_TOKENS = TokenStore.class.getName();
    public static final String ATTR_FEED_TOKENS = FeedTokens.class.getName();
    /** The {@link SignedLinks} of the feeds' enclosures (prefix {@value #FEED_LINK_PREFIX}); absent = no feeds. */
    public static final String ATTR_FEED_LINKS = "dev.xaccel.sample.feedLinks";

    private static final Logger LOG = Logger.getLogger(SampleApp.class.getName());

    /** The secret was copied from the environment into {@link #LINK_SECRET_PROPERTY}: remove it once read. */
    private volatile boolean clearSecretOnceRead;
    /** The signed-link secret until the filter has accepted it and the feed links are made from it; else null. */
    private volatile String feedSecret;
    private volatile Duration feedLinkTtl;
    /** The library of this context (signed links only exist for one on disk). */
    private volatile Library ctxLibrary;

    @Override
    public void contextInitialized(ServletContextEvent sce) {
        ServletContext ctx = sce.getServletContext();
        Placeholders placeholders = Placeholders.system();
        String libraryDir = param(ctx, placeholders, PARAM_LIBRARY_DIR, "");
        try {
            Library library;
            if (libraryDir.startsWith(S3Library.SCHEME)) {
                S3Library.Config config = S3Library.Config.fromEnvironment(libraryDir, System::getenv);
                LOG.info(Messages.get("app.s3Library", config));
                S3Library s3 = new S3Library(config, Path.of(System.getProperty("java.io.tmpdir"), NO_LOCAL_FILES));
                System.setProperty(REMOTE_ORIGINS_PROPERTY, s3.origin());
                library = s3;
            } else {
                Path root;
                if (libraryDir.isBlank()) {
                    String demoDir = param(ctx, placeholders, PARAM_DEMO_LIBRARY_DIR,
                            System.getProperty("java.io.tmpdir") + "/xaccel-demo-library");
                    root = Path.of(demoDir).toAbsolutePath();
                    DemoLibrary.ensure(root);
                    LOG.info(Messages.get("app.demoLibrary", root));
                } else {
                    root = Path.of(libraryDir);
                    LOG.info(Messages.get("app.library", root));
                }
                library = new DirectoryLibrary(root);
                System.setProperty(REMOTE_ORIGINS_PROPERTY, "");
            }
            System.setProperty(LIBRARY_PROPERTY, library.root().toString());
            ctx.setAttribute(ATTR_LIBRARY, library);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException(Messages.get("app.libraryFailed", libraryDir), e);
        }

        publish(OFFLOAD_ENV, OFFLOAD_PROPERTY, DEFAULT_OFFLOAD);
        publish(LIMIT_RATE_ENV, LIMIT_RATE_PROPERTY, DEFAULT_LIMIT_RATE);
        publish(RECEIPTS_ENV, RECEIPTS_PROPERTY, DEFAULT_RECEIPTS);
        feedLinkTtl = Duration.ofSeconds(positive(PARAM_FEED_LINK_TTL,
                param(ctx, placeholders, PARAM_FEED_LINK_TTL, DEFAULT_FEED_LINK_TTL)));
        ctxLibrary = (Library) ctx.getAttribute(ATTR_LIBRARY);
        publishSignedLinks();

        Users users = Users.parse(param(ctx, placeholders, PARAM_USERS, DEFAULT_USERS));
        if (users.isEmpty()) {
            LOG.warning(Messages.get("app.noUsers", PARAM_USERS));
        } else if (LOG.isLoggable(Level.INFO)) {
            LOG.info(Messages.get("app.users", users.names()));
        }
        ctx.setAttribute(ATTR_USERS, users);
        String minutes = param(ctx, placeholders, PARAM_TOKEN_MINUTES, "480");
        ctx.setAttribute(ATTR_TOKENS, new TokenStore(Duration.ofMinutes(positive(PARAM_TOKEN_MINUTES, minutes))));
        ctx.setAttribute(ATTR_FEED_TOKENS, new FeedTokens());
    }

    /** A context-param holding a positive integer, or an exception naming it. */
    private static long positive(String name, String value) {
        try {
            long n = Long.parseLong(value.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(Messages.get("app.badParam", name, value));
    }

    /**
     * Signed links need nginx to verify them: on only with a secret and an offload mode other than never.
     * Values are validated by the filter (it fails to start on a short secret, naming the init-param only).
     */
    private void publishSignedLinks() {
        String env = System.getenv(LINK_SECRET_ENV);
        String secret = env != null && !env.isBlank() ? env.trim()
                : System.getProperty(LINK_SECRET_PROPERTY, "").trim();
        clearSecretOnceRead = false;
        if (!secret.isEmpty() && "never".equalsIgnoreCase(System.getProperty(OFFLOAD_PROPERTY))) {
            LOG.info(Messages.get("app.signedLinksNoProxy", LINK_SECRET_ENV, OFFLOAD_PROPERTY));
            secret = "";
        }
        boolean s3 = ctxLibrary instanceof S3Library;
        if (!secret.isEmpty() && s3) {
            LOG.info(Messages.get("app.signedLinksS3", LINK_SECRET_ENV));
            secret = "";
        }
        feedSecret = null;
        if (secret.isEmpty()) {
            System.setProperty(LINK_SECRET_PROPERTY, "");
            System.setProperty(LINK_PREFIX_PROPERTY, "");
            System.setProperty(LINK_TTL_PROPERTY, "");
            if (!s3) {
                LOG.info(Messages.get("app.signedLinksOff", LINK_SECRET_ENV));
            }
            LOG.info(Messages.get("app.feedsOff"));
            return;
        }
        String ttl = System.getenv(LINK_TTL_ENV);
        System.setProperty(LINK_SECRET_PROPERTY, secret);
        System.setProperty(LINK_PREFIX_PROPERTY, LINK_PREFIX);
        System.setProperty(LINK_TTL_PROPERTY, ttl == null || ttl.isBlank() ? DEFAULT_LINK_TTL : ttl.trim());
        clearSecretOnceRead = env != null && !env.isBlank();
        feedSecret = secret;
        LOG.info(Messages.get("app.signedLinksOn", LINK_PREFIX, System.getProperty(LINK_TTL_PROPERTY)));
    }

    /**
     * The filter has read the secret: keep it out of the JVM's system properties (JMX, diagnostics), and make the
     * feeds' signed links from it (the filter has validated it: a bad secret stopped the application before).
     */
    @Override
    public void attributeAdded(ServletContextAttributeEvent event) {
        if (!SignedLinks.CONTEXT_ATTRIBUTE.equals(event.getName())) {
            return;
        }
        if (clearSecretOnceRead) {
            System.clearProperty(LINK_SECRET_PROPERTY);
            clearSecretOnceRead = false;
        }
        String secret = feedSecret;
        feedSecret = null;
        if (secret != null) {
            SignedLinks feedLinks = SignedLinks.create(secret, FEED_LINK_PREFIX, feedLinkTtl);
            event.getServletContext().setAttribute(ATTR_FEED_LINKS, feedLinks);
            LOG.info(Messages.get("app.feedsOn", FEED_LINK_PREFIX, Long.toString(feedLinks.ttl().getSeconds())));
        }
    }

    /** Closes the store's client of a library in S3. */
    @Override
    public void contextDestroyed(ServletContextEvent sce) {
        if (sce.getServletContext().getAttribute(ATTR_LIBRARY) instanceof S3Library s3) {
            s3.close();
        }
    }

    /** The filter stopped publishing signed links: no feeds either. */
    @Override
    public void attributeRemoved(ServletContextAttributeEvent event) {
        if (SignedLinks.CONTEXT_ATTRIBUTE.equals(event.getName())) {
            event.getServletContext().removeAttribute(ATTR_FEED_LINKS);
        }
    }

    /** Environment variable, else an existing system property, else the default. */
    private static void publish(String env, String property, String dflt) {
        String value = System.getenv(env);
        if (value != null && !value.isBlank()) {
            System.setProperty(property, value.trim());
        } else if (System.getProperty(property) == null) {
            System.setProperty(property, dflt);
        }
    }

    private static String param(ServletContext ctx, Placeholders placeholders, String name, String dflt) {
        String raw = ctx.getInitParameter(name);
        String value = raw == null ? null : placeholders.resolve(raw).trim();
        return value == null || value.isEmpty() ? dflt : value;
    }
}
