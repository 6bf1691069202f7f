package dev.xaccel.filter.internal.delivery;

import dev.xaccel.filter.Declaration;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.internal.config.XAccelConfig;

/**
 * nginx's per-response settings of one answer: the declaration's own where it made a choice, else the filter's
 * init-params. nginx reads them from the offload answer ({@link OffloadResponder}); of an answer the filter sends
 * itself, the charset goes into the {@code Content-Type} and a declared buffering into {@code X-Accel-Buffering}
 * (nginx honours it on a response it proxies) ({@link Representation#writeServed}).
 *
 * @param limitRate    {@code X-Accel-Limit-Rate} in bytes per second, or {@code null}
 * @param buffering    {@code X-Accel-Buffering} ({@code false}: {@code no}), or {@code null} for none
 * @param charset      {@code X-Accel-Charset}, or {@code null}
 * @param accelExpires the declaration's own {@code X-Accel-Expires}, or {@code null} for the location's or the
 *                     init-param's
 */
public record AccelExtras(Long limitRate, Boolean buffering, String charset, String accelExpires) {

    /**
     * @param declared the application's choices; {@code null} for none (mapped mode: the filter's defaults)
     */
    public static AccelExtras of(XAccelConfig config, Declaration<?> declared) {
        if (declared == null) {
            return new AccelExtras(config.limitRate(), null, config.charset(), null);
        }
        Long rate = declared.limitRate().isPresent() ? Long.valueOf(declared.limitRate().getAsLong())
                : config.limitRate();
        String expires = declared instanceof XAccelFile f ? f.accelExpires().orElse(null) : null;
        return new AccelExtras(rate, declared.buffering().orElse(null), declared.charset().orElse(config.charset()),
                expires);
    }

    /** The header value of {@link #buffering}: {@code yes} or {@code no}. */
    public String bufferingValue() {
        return Boolean.TRUE.equals(buffering) ? "yes" : "no";
    }
}
