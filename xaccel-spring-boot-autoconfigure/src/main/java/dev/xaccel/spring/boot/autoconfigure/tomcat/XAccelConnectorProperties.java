package dev.xaccel.spring.boot.autoconfigure.tomcat;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code xaccel.connector.*}: the attributes of the accept-filter connector ({@code xaccel-tomcat-connector}) on
 * Spring Boot's embedded Tomcat, with the connector's names and defaults. They apply when the connector's jar is
 * on the class path and the embedded server is Tomcat; the connector validates them when it starts (an invalid
 * value fails the startup with its own message naming the attribute and the value).
 */
@ConfigurationProperties(prefix = XAccelConnectorProperties.PREFIX)
public class XAccelConnectorProperties {

    /** The prefix of these properties. */
    public static final String PREFIX = "xaccel.connector";

    /**
     * Kernel accept filter: auto, httpready, dataready, tlsready or none (Tomcat's own connector). On Linux every
     * value but none means TCP_DEFER_ACCEPT.
     */
    private String acceptFilter = "auto";

    /**
     * Linux: TCP_DEFER_ACCEPT seconds, 1 to 3600; the kernel rounds up to a retransmission count (5 reads back as 7).
     */
    private int deferAcceptSeconds = 1;

    /** Whether a filter that cannot be applied fails the startup instead of one warning. */
    private boolean failOnError = false;

    /**
     * Whether Tomcat's sendfile sends a file the xaccel filter serves from the channel the filter opened and checked,
     * on the request's worker thread (false: the filter writes such bodies itself).
     */
    private boolean checkedFileSendfile = true;

    /** @return the accept filter */
    public String getAcceptFilter() {
        return acceptFilter;
    }

    /** @param acceptFilter the accept filter */
    public void setAcceptFilter(String acceptFilter) {
        this.acceptFilter = acceptFilter;
    }

    /** @return the TCP_DEFER_ACCEPT seconds */
    public int getDeferAcceptSeconds() {
        return deferAcceptSeconds;
    }

    /** @param deferAcceptSeconds the TCP_DEFER_ACCEPT seconds */
    public void setDeferAcceptSeconds(int deferAcceptSeconds) {
        this.deferAcceptSeconds = deferAcceptSeconds;
    }

    /** @return whether a failure to apply fails the startup */
    public boolean isFailOnError() {
        return failOnError;
    }

    /** @param failOnError whether a failure to apply fails the startup */
    public void setFailOnError(boolean failOnError) {
        this.failOnError = failOnError;
    }

    /** @return whether checked files are sent with sendfile from the filter's channel */
    public boolean isCheckedFileSendfile() {
        return checkedFileSendfile;
    }

    /** @param checkedFileSendfile whether checked files are sent with sendfile from the filter's channel */
    public void setCheckedFileSendfile(boolean checkedFileSendfile) {
        this.checkedFileSendfile = checkedFileSendfile;
    }
}
