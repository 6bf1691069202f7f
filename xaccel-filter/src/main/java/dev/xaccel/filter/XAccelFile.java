package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.Objects;

import dev.xaccel.filter.internal.util.Messages;

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

    private XAccelFile(Path path, String downloadName, String contentType, Disposition disposition) {
        super(downloadName, contentType, disposition);
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
        return new XAccelFile(path, null, null, null);
    }

    @Override
    XAccelFile with(String downloadName, String contentType, Disposition disposition) {
        return new XAccelFile(path, downloadName, contentType, disposition);
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
