package dev.xaccel.testsupport.nginx;

import dev.xaccel.testsupport.frontend.ServerUser;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.Optional;

/**
 * The one rule of whom nginx's workers run as. Started by root, nginx runs its workers as {@code nobody}, who
 * cannot reach a directory below a private one (a checkout or a library under {@code /root}): only then, and only
 * for the test's or demo's own nginx, are the workers kept as root with {@code user root;}. The shipped configs
 * never set {@code user}; the directive goes on nginx's command line ({@code -g}).
 * <p>
 * This is {@link ServerUser}'s rule applied to nginx.
 * <p>
 * Also a command for scripts ({@code ./demo}): {@code java -cp test-support/xaccel-test-support/target/classes
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
        return ServerUser.runningAsRoot() && !ServerUser.othersCanReachAll(dirs) ? Optional.of(USER_ROOT)
                : Optional.empty();
    }

    /** Whether every directory from {@code dir} up to {@code /} lets others through (its {@code o+x} bit). */
    public static boolean othersCanReach(Path dir) {
        return ServerUser.othersCanReach(dir);
    }

    /** The effective user is root. */
    static boolean runningAsRoot() {
        return ServerUser.runningAsRoot();
    }

    /** See the class comment. */
    public static void main(String[] args) {
        directive(Arrays.stream(args).map(Path::of).toList()).ifPresent(System.out::println);
    }
}
