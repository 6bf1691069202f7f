package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ValueRules;

/**
 * Immutable description of a file the application wants to send: the file itself plus optional download
 * name, content type and disposition ({@link Declaration}). Every "wither" returns a new instance.
 *
 * <pre>{@code
 * XAccel.sendFile(req, resp, XAccelFile.of(path).downloadName("Report 2024.pdf").attachment());
 * }</pre>
 */
public final class XAccelFile extends Declaration<XAccelFile> {

    private final Path path;

    private XAccelFile(Path path, Choices choices) {
        super(choices);
        this.path = path;
    }

    /**
     * @param path an absolute path, normally inside one of the configured {@code locations}
     * @return the description of that file, with the filter's defaults for everything else
     * @throws NullPointerException     if {@code path} is null
     * @throws IllegalArgumentException if {@code path} is relative
     */
    public static XAccelFile of(Path path) {
        Objects.requireNonNull(path, "path");
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException(Messages.get("file.relative", path));
        }
        return new XAccelFile(path, Choices.NONE);
    }

    @Override
    XAccelFile with(Choices choices) {
        return new XAccelFile(path, choices);
    }

    /**
     * {@code X-Accel-Expires} of this answer when offloaded, instead of its location's {@code expires=} and the
     * {@code accelExpires} init-param: how long nginx's {@code proxy_cache} may keep the decision
     * (docs/small-files.md); {@code 0} never. As for the init-param, an answer that sets a cookie is never cached.
     *
     * @param value integer seconds, or {@code @} followed by epoch seconds
     * @return a copy with that value
     * @throws IllegalArgumentException if it is neither (the {@code accelExpires} init-param's rule)
     */
    public XAccelFile accelExpires(String value) {
        ValueRules.accelExpires(value).ifPresent(why -> {
            throw invalid(InitParams.ACCEL_EXPIRES, value, why);
        });
        Choices c = choices();
        return with(c.nginx(c.limitRate(), c.buffering(), c.charset(), value));
    }

    /**
     * The {@code X-Accel-Expires} chosen for this answer.
     *
     * @return the value, or empty when the location's or the init-param's applies
     */
    public Optional<String> accelExpires() {
        return Optional.ofNullable(choices().accelExpires());
    }

    /**
     * The file.
     *
     * @return the absolute path given to {@link #of(Path)}
     */
    public Path path() {
        return path;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XAccelFile f && path.equals(f.path) && sameChoices(f);
    }

    @Override
    public int hashCode() {
        return 31 * path.hashCode() + choicesHash();
    }

    @Override
    public String toString() {
        return "XAccelFile[" + path + choicesText() + "]";
    }
}
