package dev.xaccel.filter;

/**
 * An invalid configuration value. The message always names the init-param and the offending value; the filter
 * turns it into a {@link jakarta.servlet.ServletException} from {@code init()} (fail closed), the builder lets
 * it through as the {@link IllegalArgumentException} it is.
 */
final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String param;

    ConfigException(String param, String message) {
        super(message);
        this.param = param;
    }

    /** The init-param the problem is about. */
    String param() {
        return param;
    }

    /** Message {@code config.invalid}: "Invalid value [{1}] for init-param [{0}]: {2}". */
    static ConfigException invalid(String param, Object value, String why) {
        // as text: a number formatted by MessageFormat would get grouping separators
        return new ConfigException(param, Messages.get("config.invalid", param, String.valueOf(value), why));
    }
}
