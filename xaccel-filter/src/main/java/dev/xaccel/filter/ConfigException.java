package dev.xaccel.filter;

/**
 * An invalid configuration value. The message always names the init-param and the offending value; the
 * filter turns it into a {@link jakarta.servlet.ServletException} from {@code init()} (fail closed).
 */
final class ConfigException extends Exception {

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
    static ConfigException invalid(String param, String value, String why) {
        return new ConfigException(param, Messages.get("config.invalid", param, value, why));
    }
}
