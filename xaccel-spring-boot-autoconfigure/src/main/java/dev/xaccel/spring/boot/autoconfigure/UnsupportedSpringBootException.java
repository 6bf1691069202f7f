package dev.xaccel.spring.boot.autoconfigure;

/**
 * The application runs on a Spring Boot or Spring Framework line the starter does not support
 * ({@link SpringBootLineCheck}); {@link UnsupportedSpringBootFailureAnalyzer} reports it.
 */
public class UnsupportedSpringBootException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** What to do about it. */
    private final String action;

    /**
     * @param message what was found and what is supported
     * @param action  what to do about it
     */
    public UnsupportedSpringBootException(String message, String action) {
        super(message);
        this.action = action;
    }

    /**
     * What to do about it.
     *
     * @return the action of the failure report
     */
    public String getAction() {
        return action;
    }
}
