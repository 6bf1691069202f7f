package dev.xaccel.testsupport;

/**
 * Closes servers in order, each even when one before it fails (a front end's or a container's stop that throws
 * must not leave the next one running); the first failure is rethrown with the later ones suppressed. The
 * {@code @AfterAll} of the tests that start a front end and the application behind it.
 */
public final class CloseAll {

    private CloseAll() {
    }

    /** Closes every non-null one of {@code resources}, in order. */
    public static void of(AutoCloseable... resources) {
        RuntimeException first = null;
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                RuntimeException wrapped = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                if (first == null) {
                    first = wrapped;
                } else {
                    first.addSuppressed(wrapped);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
