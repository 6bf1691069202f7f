package dev.xaccel.spring.boot.autoconfigure;

/**
 * An {@code xaccel.*} property the filter refused: the message names the property, then gives the filter's own
 * fail-closed message (which names the init-param and the value, never the signed-link secret). Fails the
 * application's startup; {@link InvalidXAccelPropertyFailureAnalyzer} reports it.
 */
public class InvalidXAccelPropertyException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The refused property. */
    private final String property;

    /**
     * @param property the property, e.g. {@code xaccel.trusted-proxies}
     * @param reason   why it was refused (the filter's message)
     * @param cause    the filter's exception, or {@code null}
     */
    public InvalidXAccelPropertyException(String property, String reason, Throwable cause) {
        super("Invalid " + property + ": " + reason, cause);
        this.property = property;
    }

    /**
     * The property.
     *
     * @return e.g. {@code xaccel.trusted-proxies}
     */
    public String getProperty() {
        return property;
    }
}
