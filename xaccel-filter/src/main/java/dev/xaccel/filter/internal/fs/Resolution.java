package dev.xaccel.filter.internal.fs;

import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

import dev.xaccel.filter.internal.util.Messages;

/**
 * Immutable outcome of resolving a path inside a root: either a real, regular, readable file together with the
 * real root and its path relative to that root (what {@link ConfinedOpener} opens and what the offload header
 * names), or a rejection carrying the HTTP status to answer and a reason for the (debug) log. The reason is never
 * meant to be shown to clients.
 *
 * @param root         the real root the file lies in; {@code null} when rejected or outside every root
 * @param file         the real path of the file; {@code null} when rejected
 * @param relativePath '/'-separated real path below {@code root}, no leading '/'; {@code null} without a root
 * @param status       200 when ok, otherwise the HTTP status of the rejection
 * @param reason       the rejection reason, {@code null} when ok
 * @param size         the file's size in bytes as its check found it, {@code -1} when not known
 * @param lastModified the file's modification time in epoch milliseconds as its check found it, {@code -1} when
 *                     not known ({@link #hasAttributes})
 * @param directory    the root held open by its resolver, which {@link ConfinedOpener} opens the file below;
 *                     {@code null} when rejected, outside every root, or made without a resolver (opened by name)
 */
public record Resolution(Path root, Path file, String relativePath, int status, String reason, long size,
        long lastModified, RootDirectory directory) {

    /**
     * A checked file whose size and time are not known here (it is opened next, and the open file has them).
     *
     * @param root         the real root directory
     * @param realFile     the real path of the file (already {@code toRealPath()}-ed), below {@code root}
     * @param relativePath '/'-separated path of the file relative to the real root, no leading '/'
     */
    public static Resolution ok(Path root, Path realFile, String relativePath) {
        return new Resolution(Objects.requireNonNull(root, "root"), Objects.requireNonNull(realFile, "realFile"),
                Objects.requireNonNull(relativePath, "relativePath"), 200, null, -1, -1, null);
    }

    /** {@link #ok(Path, Path, String)} below a root held open. */
    public static Resolution ok(RootDirectory root, Path realFile, String relativePath) {
        // built once: a hand-off by the names alone makes one per request
        return new Resolution(root.path(), Objects.requireNonNull(realFile, "realFile"),
                Objects.requireNonNull(relativePath, "relativePath"), 200, null, -1, -1, root);
    }

    /**
     * A checked file with the size and time of the check's last {@code lstat}: what the front end is told about
     * the file it will open, without opening it here.
     *
     * @param attributes the file's own attributes, read without following a link
     */
    public static Resolution ok(Path root, Path realFile, String relativePath, BasicFileAttributes attributes) {
        return new Resolution(Objects.requireNonNull(root, "root"), Objects.requireNonNull(realFile, "realFile"),
                Objects.requireNonNull(relativePath, "relativePath"), 200, null, attributes.size(),
                attributes.lastModifiedTime().toMillis(), null);
    }

    /** {@link #ok(Path, Path, String, BasicFileAttributes)} below a root held open. */
    public static Resolution ok(RootDirectory root, Path realFile, String relativePath,
            BasicFileAttributes attributes) {
        // built once: this is every offloaded request's resolution
        return new Resolution(root.path(), Objects.requireNonNull(realFile, "realFile"),
                Objects.requireNonNull(relativePath, "relativePath"), 200, null, attributes.size(),
                attributes.lastModifiedTime().toMillis(), root);
    }

    /** A checked file outside every root ({@code allowUnmapped=true}): served by name, never offloaded. */
    public static Resolution outsideRoots(Path realFile) {
        return new Resolution(null, Objects.requireNonNull(realFile, "realFile"), null, 200, null, -1, -1, null);
    }

    /** The same file below another real root that contains it, with the same size and time. */
    public Resolution below(RootDirectory otherRoot, String otherRelativePath) {
        return new Resolution(otherRoot.path(), file, Objects.requireNonNull(otherRelativePath, "relativePath"), 200,
                null, size, lastModified, otherRoot);
    }

    /**
     * @param httpStatus the status to answer (400, 404, 500...)
     * @param reason     why, for logs
     */
    public static Resolution rejected(int httpStatus, String reason) {
        if (httpStatus < 400 || httpStatus > 599) {
            throw new IllegalArgumentException(Messages.get("resolution.status", httpStatus));
        }
        return new Resolution(null, null, null, httpStatus, reason == null ? "" : reason, -1, -1, null);
    }

    public boolean isOk() {
        return file != null;
    }

    /** Whether the check read the file's size and time ({@link #size}, {@link #lastModified}). */
    public boolean hasAttributes() {
        return size >= 0;
    }

    @Override
    public String toString() {
        return isOk() ? "Resolution[ok " + (relativePath == null ? file : relativePath) + "]"
                : "Resolution[" + status + " " + reason + "]";
    }
}
