package dev.xaccel.testsupport.nginx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * The one rule of whom nginx's workers run as. Started by root, nginx runs its workers as {@code nobody}, who
 * cannot reach a directory below a private one (a checkout or a library under {@code /root}): only then, and only
 * for the test's or demo's own nginx, are the workers kept as root with {@code user root;}. The shipped configs
 * never set {@code user}; the directive goes on nginx's command line ({@code -g}).
 * <p>
 * Also a command for scripts ({@code ./demo}): {@code java -cp xaccel-test-support/target/classes
 * dev.xaccel.testsupport.nginx.NginxUser DIR...} prints {@code user root;} when it is needed for nginx's workers to
 * reach every {@code DIR}, and nothing otherwise.
 */
public final class NginxUser {

    /** The directive, when needed. */
    public static final String USER_ROOT = "user root;";

    private NginxUser() {
    }

    /** {@code user root;} when nginx would be started by root and a worker as nobody could not reach every dir. */
    public static Optional<String> directive(Collection<Path> dirs) {
        if (!runningAsRoot()) {
            return Optional.empty();
        }
        for (Path dir : dirs) {
            if (!othersCanReach(dir)) {
                return Optional.of(USER_ROOT);
            }
        }
        return Optional.empty();
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
    static boolean runningAsRoot() {
        try {
            return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return "root".equals(System.getProperty("user.name"));
        }
    }

    /** See the class comment. */
    public static void main(String[] args) {
        directive(Arrays.stream(args).map(Path::of).toList()).ifPresent(System.out::println);
    }
}
