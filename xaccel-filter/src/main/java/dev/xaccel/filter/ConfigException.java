package dev.xaccel.filter;

import dev.xaccel.filter.internal.util.Messages;

/**
 * An invalid configuration value. The message always names the init-param and the offending value, and
 * {@link #param()} names the init-param alone (the Spring Boot starter maps it to its property by that name, never
 * by parsing the message). The filter turns it into a {@link jakarta.servlet.ServletException} from
 * {@code init()} (fail closed); the builder lets it through as the {@link IllegalArgumentException} it is.
 */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The init-param the value was given for. */
    private final String param;

    /**
     * A refused value with a message of its own.
     *
     * @param param   the init-param's name ({@link InitParams})
     * @param message what is wrong, naming the init-param and the value (never a secret)
     */
    public ConfigException(String param, String message) {
        super(message);
        this.param = param;
    }

    /**
     * The init-param the problem is about.
     *
     * @return one of the names in {@link InitParams}
     */
    public String param() {
        return param;
    }

    /**
     * The usual message: "Invalid value [VALUE] for init-param [PARAM]: WHY".
     *
     * @param param the init-param's name
     * @param value the refused value, shown as text
     * @param why   the rule the value breaks
     * @return the exception, to throw
     */
    public static ConfigException invalid(String param, Object value, String why) {
        // as text: a number formatted by MessageFormat would get grouping separators
        return new ConfigException(param, Messages.get("config.invalid", param, String.valueOf(value), why));
    }
}
