package dev.xaccel.testsupport.frontend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.Collection;
import java.util.Optional;

/**
 * The one rule of whom a front end's request-handling processes run as. Started by root, every front end drops to
 * an unprivileged account for the requests (nginx's workers: {@code nobody}; Apache's children and lighttpd:
 * {@code www-data}; Caddy, which cannot drop privileges itself: started as {@code caddy} with {@code setpriv}).
 * Such an account reads a data root only if every directory from the root up to {@code /} lets others through
 * ({@code o+x}): a checkout below a private directory ({@code /root/...}) is not. Only then does a test's own
 * server keep root for its workers (nginx, lighttpd, Caddy) or refuse to start with a message that says why
 * (Apache, whose children cannot run as root). Not running as root, a server runs as the test's user and no
 * account is switched to.
 */
public final class ServerUser {

    private ServerUser() {
    }

    /**
     * The account to switch to: {@code account} when running as root and it can reach every dir, else empty
     * (not root: nothing to switch; root and a dir out of reach: the caller decides).
     */
    public static Optional<String> unprivileged(String account, Collection<Path> dirs) {
        if (!runningAsRoot() || !othersCanReachAll(dirs)) {
            return Optional.empty();
        }
        return Optional.of(account);
    }

    /** Whether every directory of {@code dirs} is reachable by others ({@link #othersCanReach(Path)}). */
    public static boolean othersCanReachAll(Collection<Path> dirs) {
        return dirs.stream().allMatch(ServerUser::othersCanReach);
    }

    /** Whether every directory from {@code dir} up to {@code /} lets others through (its {@code o+x} bit). */
    public static boolean othersCanReach(Path dir) {
        try {
            for (Path p = dir.toAbsolutePath(); p != null; p = p.getParent()) {
                if (!Files.getPosixFilePermissions(p).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    return false;
                }
            }
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The effective user is root (uid 0; where /proc is missing, the user name). */
    public static boolean runningAsRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** Whether the account exists on this machine. */
    public static boolean exists(String account) {
        try {
            Path.of("/").getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(account);
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Makes {@code dir} (not its contents) owned by {@code account} and its primary group {@code group}, so that
     * a server running as that account can write its logs there.
     */
    public static void giveTo(Path dir, String account, String group) throws IOException {
        UserPrincipalLookupService lookup = dir.getFileSystem().getUserPrincipalLookupService();
        PosixFileAttributeView view = Files.getFileAttributeView(dir, PosixFileAttributeView.class);
        GroupPrincipal g = lookup.lookupPrincipalByGroupName(group);
        view.setOwner(lookup.lookupPrincipalByName(account));
        view.setGroup(g);
    }
}
