package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Immutable outcome of resolving a path inside a root: either a real, regular, readable file together with
 * its path relative to the real root, or a rejection carrying the HTTP status to answer and a reason for the
 * (debug) log. The reason is never meant to be shown to clients.
 */
final class Resolution {

    private final Path file;
    private final String relativePath;
    private final int status;
    private final String reason;

    private Resolution(Path file, String relativePath, int status, String reason) {
        this.file = file;
        this.relativePath = relativePath;
        this.status = status;
        this.reason = reason;
    }

    /**
     * @param realFile     the real path of the file (already {@code toRealPath()}-ed)
     * @param relativePath '/'-separated path of the file relative to the real root, no leading '/'
     */
    static Resolution ok(Path realFile, String relativePath) {
        return new Resolution(Objects.requireNonNull(realFile, "realFile"),
                Objects.requireNonNull(relativePath, "relativePath"), 200, null);
    }

    /**
     * @param httpStatus the status to answer (400, 404, 500...)
     * @param reason     why, for logs
     */
    static Resolution rejected(int httpStatus, String reason) {
        if (httpStatus < 400 || httpStatus > 599) {
            throw new IllegalArgumentException("status " + httpStatus);
        }
        return new Resolution(null, null, httpStatus, reason == null ? "" : reason);
    }

    boolean isOk() {
        return file != null;
    }

    /** The real file, or {@code null} when rejected. */
    Path file() {
        return file;
    }

    /** Path relative to the real root ('/'-separated, no leading '/'), or {@code null} when rejected. */
    String relativePath() {
        return relativePath;
    }

    /** 200 when ok, otherwise the HTTP status of the rejection. */
    int status() {
        return status;
    }

    /** The rejection reason, or {@code null} when ok. */
    String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return isOk() ? "Resolution[ok " + relativePath + "]" : "Resolution[" + status + " " + reason + "]";
    }
}
