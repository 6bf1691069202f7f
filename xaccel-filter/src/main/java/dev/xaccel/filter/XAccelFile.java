package dev.xaccel.filter;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

import dev.xaccel.filter.internal.util.Messages;

/**
 * Immutable description of a file the application wants to send: the file itself plus optional download
 * name, content type and disposition. Every "wither" returns a new instance.
 *
 * <pre>{@code
 * XAccel.sendFile(req, resp, XAccelFile.of(path).downloadName("Report 2024.pdf").attachment());
 * }</pre>
 *
 * When no content type is given the filter uses {@code ServletContext.getMimeType(fileName)}, then the
 * {@code defaultContentType} init-param. When no disposition is given the {@code disposition} init-param
 * applies. A {@code Content-Disposition} header is only sent when a download name is given or the
 * disposition is {@code attachment}.
 */
public final class XAccelFile implements Declaration {

    private final Path path;
    private final String downloadName;
    private final String contentType;
    private final Disposition disposition;

    private XAccelFile(Path path, String downloadName, String contentType, Disposition disposition) {
        this.path = path;
        this.downloadName = downloadName;
        this.contentType = contentType;
        this.disposition = disposition;
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

    /**
     * The name the browser should save the file as (any Unicode; encoded per RFC 6266/8187).
     *
     * @param name the name, or {@code null} for none
     * @return a copy with that name
     */
    public XAccelFile downloadName(String name) {
        return new XAccelFile(path, name == null || name.isBlank() ? null : name, contentType, disposition);
    }

    /**
     * An explicit {@code Content-Type}, e.g. {@code audio/mpeg}.
     *
     * @param type the media type, or {@code null} for the default lookup
     * @return a copy with that type
     * @throws IllegalArgumentException if it contains control characters or non-ASCII
     */
    public XAccelFile contentType(String type) {
        return new XAccelFile(path, downloadName, checkedContentType(type), disposition);
    }

    /**
     * A content type as given to {@code contentType(type)}, trimmed; {@code null} for none or blank.
     *
     * @throws IllegalArgumentException if it contains control characters or non-ASCII
     */
    static String checkedContentType(String type) {
        if (type == null) {
            return null;
        }
        for (int i = 0; i < type.length(); i++) {
            char c = type.charAt(i);
            if ((c < 0x20 && c != '\t') || c > 0x7e) {
                throw new IllegalArgumentException(Messages.get("file.contentType"));
            }
        }
        return type.isBlank() ? null : type.trim();
    }

    /**
     * Ask the browser to download ({@code Content-Disposition: attachment}).
     *
     * @return a copy with that disposition
     */
    public XAccelFile attachment() {
        return new XAccelFile(path, downloadName, contentType, Disposition.ATTACHMENT);
    }

    /**
     * Ask the browser to display the file ({@code Content-Disposition: inline}).
     *
     * @return a copy with that disposition
     */
    public XAccelFile inline() {
        return new XAccelFile(path, downloadName, contentType, Disposition.INLINE);
    }

    /**
     * The file.
     *
     * @return the absolute path given to {@link #of(Path)}
     */
    public Path path() {
        return path;
    }

    /**
     * The name the browser should save the file as.
     *
     * @return the download name, or empty for none
     */
    public Optional<String> downloadName() {
        return Optional.ofNullable(downloadName);
    }

    /**
     * The explicit content type.
     *
     * @return the media type, or empty when the filter looks it up
     */
    public Optional<String> contentType() {
        return Optional.ofNullable(contentType);
    }

    /**
     * The disposition chosen for this file.
     *
     * @return {@link Disposition#INLINE}, {@link Disposition#ATTACHMENT}, or empty when the filter's default applies
     */
    public Optional<Disposition> disposition() {
        return Optional.ofNullable(disposition);
    }

    /**
     * The file.
     *
     * @return the absolute path given to {@link #of(Path)}
     * @deprecated use {@link #path()}
     */
    @Deprecated
    public Path getPath() {
        return path;
    }

    /**
     * The download name.
     *
     * @return the download name, or empty
     * @deprecated use {@link #downloadName()}
     */
    @Deprecated
    public Optional<String> getDownloadName() {
        return downloadName();
    }

    /**
     * The explicit content type.
     *
     * @return the media type, or empty
     * @deprecated use {@link #contentType()}
     */
    @Deprecated
    public Optional<String> getContentType() {
        return contentType();
    }

    /**
     * The disposition as its header token.
     *
     * @return {@code inline}, {@code attachment}, or empty when the filter's default applies
     * @deprecated use {@link #disposition()}
     */
    @Deprecated
    public Optional<String> getDisposition() {
        return disposition().map(Disposition::token);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof XAccelFile)) {
            return false;
        }
        XAccelFile f = (XAccelFile) o;
        return path.equals(f.path) && Objects.equals(downloadName, f.downloadName)
                && Objects.equals(contentType, f.contentType) && disposition == f.disposition;
    }

    @Override
    public int hashCode() {
        return Objects.hash(path, downloadName, contentType, disposition);
    }

    @Override
    public String toString() {
        return "XAccelFile[" + path + (downloadName == null ? "" : ", downloadName=" + downloadName)
                + (contentType == null ? "" : ", contentType=" + contentType)
                + (disposition == null ? "" : ", " + disposition.token()) + "]";
    }
}
