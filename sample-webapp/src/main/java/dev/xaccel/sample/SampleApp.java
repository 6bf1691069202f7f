package dev.xaccel.sample;

import dev.xaccel.sample.auth.TokenStore;
import dev.xaccel.sample.auth.Users;
import dev.xaccel.sample.demolib.DemoLibrary;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import java.io.IOException;
import java.io.UncheckedIOException;
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
 */
public final class SampleApp implements ServletContextListener {

    /** Context-param: the library root; empty means "use the demo library". */
    public static final String PARAM_LIBRARY_DIR = "libraryDir";
    /** Context-param: where the demo library is generated when {@code libraryDir} is empty. */
    public static final String PARAM_DEMO_LIBRARY_DIR = "demoLibraryDir";
    /** Context-param: users, {@code name:password[:admin]} separated by commas. */
    public static final String PARAM_USERS = "users";
    /** Context-param: lifetime of a bearer token in minutes (default 480). */
    public static final String PARAM_TOKEN_MINUTES = "tokenMinutes";

    /** System property set to the library's real path before the filters start. */
    public static final String LIBRARY_PROPERTY = "xaccel.sample.library";
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
    /** Users when the context-param is empty: the documented demo user. */
    public static final String DEFAULT_USERS = "demo:demo:admin";

    public static final String ATTR_LIBRARY = Library.class.getName();
    public static final String ATTR_USERS = Users.class.getName();
    public static final String ATTR_TOKENS = TokenStore.class.getName();

    private static final Logger LOG = Logger.getLogger(SampleApp.class.getName());

    @Override
    public void contextInitialized(ServletContextEvent sce) {
        ServletContext ctx = sce.getServletContext();
        Placeholders placeholders = Placeholders.system();
        String libraryDir = param(ctx, placeholders, PARAM_LIBRARY_DIR, "");
        try {
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
            Library library = new Library(root);
            System.setProperty(LIBRARY_PROPERTY, library.root().toString());
            ctx.setAttribute(ATTR_LIBRARY, library);
        } catch (IOException e) {
            throw new UncheckedIOException(Messages.get("app.libraryFailed", libraryDir), e);
        }

        publish(OFFLOAD_ENV, OFFLOAD_PROPERTY, DEFAULT_OFFLOAD);
        publish(LIMIT_RATE_ENV, LIMIT_RATE_PROPERTY, DEFAULT_LIMIT_RATE);

        Users users = Users.parse(param(ctx, placeholders, PARAM_USERS, DEFAULT_USERS));
        if (users.isEmpty()) {
            LOG.warning(Messages.get("app.noUsers", PARAM_USERS));
        } else if (LOG.isLoggable(Level.INFO)) {
            LOG.info(Messages.get("app.users", users.names()));
        }
        ctx.setAttribute(ATTR_USERS, users);
        String minutes = param(ctx, placeholders, PARAM_TOKEN_MINUTES, "480");
        try {
            ctx.setAttribute(ATTR_TOKENS, new TokenStore(Duration.ofMinutes(Long.parseLong(minutes.trim()))));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(Messages.get("app.badParam", PARAM_TOKEN_MINUTES, minutes), e);
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
