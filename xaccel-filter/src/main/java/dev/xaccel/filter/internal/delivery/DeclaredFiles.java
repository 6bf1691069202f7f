package dev.xaccel.filter.internal.delivery;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.Declaration;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.XAccelRemote;
import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.config.XAccelConfig;
import dev.xaccel.filter.internal.fs.ConfinedOpener;
import dev.xaccel.filter.internal.fs.Opening;
import dev.xaccel.filter.internal.fs.Resolution;
import dev.xaccel.filter.internal.fs.SafePathResolver;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ThrottledLog;
import dev.xaccel.filter.internal.util.Uris;

/**
 * Declared mode's delivery: once the chain returned (or from an async thread), checks that the declaration still
 * applies (2xx, not committed), resolves the declared path to a checked file inside its location (or, with
 * {@code allowUnmapped}, outside every root), and hands it to the {@link FileDelivery}; a declared remote object
 * goes to the {@link RemoteDelivery}.
 */
public final class DeclaredFiles implements DeclaredState.Delivery {

    private static final Logger LOG = Logger.getLogger(DeclaredFiles.class.getName());

    private final FileDelivery delivery;
    private final RemoteDelivery remote;
    private final ThrottledLog committedLog = new ThrottledLog(LOG, Level.WARNING);
    private final ThrottledLog unmappedLog = new ThrottledLog(LOG, Level.SEVERE);

    public DeclaredFiles(FileDelivery delivery, RemoteDelivery remote) {
        this.delivery = delivery;
        this.remote = remote;
    }

    @Override
    public void deliver(DeclaredState state, Declaration<?> declaration) throws IOException {
        HttpServletResponse resp = state.response();
        OffloadResponseWrapper wrapper = state.wrapper();
        int status = wrapper.getStatus();
        if (status < 200 || status > 299) {
            if (LOG.isLoggable(Level.FINE)) {
                LOG.fine(Messages.get("filter.declaredNot2xx", describe(declaration), status));
            }
            return;
        }
        if (resp.isCommitted()) {
            committedLog.log(() -> Messages.get("filter.declaredCommitted", describe(declaration)));
            return;
        }
        if (wrapper.bodyWritten()) {
            resp.resetBuffer();
        }
        if (declaration instanceof XAccelRemote r) {
            remote.deliver(state.request(), resp, r, wrapper.bodyWritten());
            return;
        }
        XAccelFile file = (XAccelFile) declaration;
        delivery.deliver(state.request(), resp, new Declared(file.path()), file, wrapper.bodyWritten(),
                delivery.decision().asked(state.request()), file.path());
    }

    /**
     * A declared file, checked by name first: a name below a location's root without a link is its own real path
     * (no realpath), and with no front end to give it to, the walk that checks it opens it. A name below a root
     * that reaches its file through a link is judged by that root's {@code symlinks} policy (404 for a link it does
     * not follow). Otherwise its real path decides the location; a file outside every location is an application
     * bug (500, a throttled SEVERE line) unless {@code allowUnmapped}.
     */
    private final class Declared implements FileLookup {

        private final Path declared;

        Declared(Path declared) {
            this.declared = declared;
        }

        @Override
        public Found resolve(Check check) {
            // a declared name is checked at least by its final name (NAMES is mapped mode's)
            boolean finalNameOnly = check != Check.WALK;
            XAccelConfig cfg = delivery.config();
            Location named = cfg.locationNamed(declared);
            Resolution resolved = named == null ? null : named.resolver().resolveNamedBelow(declared, finalNameOnly);
            if (resolved != null) {
                return new Found(resolved, named);
            }
            Path real;
            try {
                real = declared.toRealPath();
            } catch (IOException e) {
                return new Found(Resolution.rejected(404, "not found"), null);
            }
            // a link below the root it was declared under: that root's policy refuses it, wherever it leads
            Resolution linked = named == null ? null : named.resolver().refuseLinkedName(declared, real);
            if (linked != null) {
                return new Found(linked, null);
            }
            Location location = cfg.locationFor(real);
            resolved = location != null ? location.resolver().resolveDeclared(declared)
                    : outsideRoots(cfg, declared, real);
            if (resolved == null) {
                unmappedLog.log(() -> Messages.get("filter.declaredUnmapped", declared, real));
                return new Found(Resolution.rejected(500, "outside every location"), null);
            }
            return new Found(resolved, location);
        }

        @Override
        public Opening open() throws IOException {
            Location location = delivery.config().locationNamed(declared);
            Opening opening = location == null ? null : location.resolver().openNamedBelow(declared);
            if (opening != null) {
                return opening;
            }
            Resolution resolved = resolve(Check.WALK).file();
            return resolved.isOk() ? ConfinedOpener.open(resolved) : Opening.refused(resolved);
        }
    }

    /** For log lines: the declared path, or the remote URL without its query. */
    private static String describe(Declaration<?> d) {
        return d instanceof XAccelRemote r ? Uris.withoutQuery(r.url()) : ((XAccelFile) d).path().toString();
    }

    /**
     * A declared file outside every location: {@code null} (a 500: an application bug) unless
     * {@code allowUnmapped}; then the checks {@link SafePathResolver#resolveDeclared} applies below a root, on the
     * whole path.
     */
    private static Resolution outsideRoots(XAccelConfig cfg, Path declared, Path real) {
        if (!cfg.allowUnmapped()) {
            return null;
        }
        String bad = SafePathResolver.checkNames(declared, cfg.allowHidden());
        if (bad == null) {
            bad = SafePathResolver.checkNames(real, cfg.allowHidden());
        }
        if (bad != null) {
            return Resolution.rejected(404, bad);
        }
        if (!Files.isRegularFile(real) || !Files.isReadable(real)) {
            return Resolution.rejected(404, "not a readable regular file");
        }
        return Resolution.outsideRoots(real);
    }
}
