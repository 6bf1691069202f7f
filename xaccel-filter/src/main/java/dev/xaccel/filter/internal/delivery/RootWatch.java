package dev.xaccel.filter.internal.delivery;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.RootDirectory;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;

/**
 * Notices a data root that went away while the filter runs (a file system unmounted, the directory moved or replaced
 * by something that is not a directory) and says so in the server's log: one throttled WARNING per root while it is
 * missing ({@link ThrottledLog}: the first, then at most one a minute), one INFO line when it is back. Clients see
 * nothing of it but the 404 every file below a missing root gets anyway, never a path. The roots are looked at only
 * when a file could not be found (and, while one is missing, before every delivery, to notice its return), so the
 * normal path pays nothing; a health check asks {@link #missingNow()}. It also closes the roots the resolvers hold
 * open ({@link RootDirectory}) when the filter stops. Thread-safe; one per filter instance.
 */
public final class RootWatch {

    private static final Logger LOG = Logger.getLogger(RootWatch.class.getName());

    private final List<Watched> roots;
    private final List<RootDirectory> directories;
    private volatile boolean anyMissing;

    private static final class Watched {
        public final Path root;
        public final ThrottledLog missingLog = new ThrottledLog(LOG, Level.WARNING);
        public boolean missing;

        public Watched(Path root) {
            this.root = root;
        }
    }

    /** Every distinct root of the configuration's locations and mappings. */
    public RootWatch(XAccelConfig config) {
        Set<Path> distinct = new LinkedHashSet<>();
        config.locations().forEach(l -> distinct.add(l.root()));
        config.mappings().forEach(m -> distinct.add(m.resolver().root()));
        List<Watched> list = new ArrayList<>();
        distinct.forEach(r -> list.add(new Watched(r)));
        this.roots = List.copyOf(list);
        List<RootDirectory> held = new ArrayList<>();
        config.locations().forEach(l -> held.add(l.resolver().directory()));
        config.mappings().forEach(m -> held.add(m.resolver().directory()));
        this.directories = List.copyOf(held);
    }

    /** The filter stops: the roots held open are closed. */
    public void close() {
        directories.forEach(RootDirectory::close);
    }

    /** A file was not found (or vanished before it was opened): is a root gone? */
    public void notFound() {
        check();
    }

    /** Before a delivery: while a root is missing, whether it is back (one volatile read otherwise). */
    public void beforeDelivery() {
        if (anyMissing) {
            check();
        }
    }

    /** Whether any root is missing right now, as last seen. */
    public boolean anyMissing() {
        return anyMissing;
    }

    /**
     * Looks at every root now (a health check's question): one {@code stat} per root, with the same log lines as
     * a 404 would bring.
     *
     * @return how many roots are missing
     */
    public int missingNow() {
        return check();
    }

    /** @return how many roots are missing */
    private int check() {
        int missingNow = 0;
        for (Watched w : roots) {
            boolean present = Files.isDirectory(w.root, LinkOption.NOFOLLOW_LINKS);
            boolean back;
            synchronized (w) {
                back = present && w.missing;
                w.missing = !present;
            }
            if (!present) {
                missingNow++;
                w.missingLog.log(() -> Messages.get("root.missing", w.root));
            } else if (back) {
                LOG.info(Messages.get("root.back", w.root));
            }
        }
        anyMissing = missingNow > 0;
        return missingNow;
    }
}
