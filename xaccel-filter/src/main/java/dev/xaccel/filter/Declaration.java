package dev.xaccel.filter;

import java.util.Objects;
import java.util.Optional;

import dev.xaccel.filter.internal.util.Messages;

/**
 * What application code declares as the answer to a request: a local file ({@link XAccelFile}) or an object in a
 * remote store ({@link XAccelRemote}), and how the answer presents it — the same choices for both kinds, kept
 * here once. Immutable: every "wither" returns a new instance of the same kind. Only this package's two kinds
 * extend it.
 *
 * <p>When no content type is given the filter uses {@code ServletContext.getMimeType(name)}, then the
 * {@code defaultContentType} init-param. When no disposition is given the {@code disposition} init-param applies.
 * A {@code Content-Disposition} header is only sent when a download name is given or the disposition is
 * {@code attachment}.
 *
 * @param <T> the kind itself, which the withers return
 */
public abstract class Declaration<T extends Declaration<T>> {

    private final String downloadName;
    private final String contentType;
    private final Disposition disposition;

    Declaration(String downloadName, String contentType, Disposition disposition) {
        this.downloadName = downloadName;
        this.contentType = contentType;
        this.disposition = disposition;
    }

    /** The same kind of declaration of the same thing with these choices. */
    abstract T with(String downloadName, String contentType, Disposition disposition);

    /**
     * The name the browser should save the file as (any Unicode; encoded per RFC 6266/8187).
     *
     * @param name the name, or {@code null} for none
     * @return a copy with that name
     */
    public T downloadName(String name) {
        return with(name == null || name.isBlank() ? null : name, contentType, disposition);
    }

    /**
     * An explicit {@code Content-Type}, e.g. {@code audio/mpeg}; for a remote object it wins over the store's.
     *
     * @param type the media type, or {@code null} for the default lookup by name
     * @return a copy with that type
     * @throws IllegalArgumentException if it contains control characters or non-ASCII
     */
    public T contentType(String type) {
        return with(downloadName, checkedContentType(type), disposition);
    }

    /**
     * Ask the browser to download ({@code Content-Disposition: attachment}).
     *
     * @return a copy with that disposition
     */
    public T attachment() {
        return with(downloadName, contentType, Disposition.ATTACHMENT);
    }

    /**
     * Ask the browser to display the file ({@code Content-Disposition: inline}).
     *
     * @return a copy with that disposition
     */
    public T inline() {
        return with(downloadName, contentType, Disposition.INLINE);
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
     * The disposition chosen for this answer.
     *
     * @return {@link Disposition#INLINE}, {@link Disposition#ATTACHMENT}, or empty when the filter's default applies
     */
    public Optional<Disposition> disposition() {
        return Optional.ofNullable(disposition);
    }

    /** A content type as given to {@code contentType(type)}, trimmed; {@code null} for none or blank. */
    private static String checkedContentType(String type) {
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

    /** Whether the choices are the same (for the kinds' {@code equals}). */
    final boolean sameChoices(Declaration<?> o) {
        return Objects.equals(downloadName, o.downloadName) && Objects.equals(contentType, o.contentType)
                && disposition == o.disposition;
    }

    /** The choices' hash (for the kinds' {@code hashCode}). */
    final int choicesHash() {
        return Objects.hash(downloadName, contentType, disposition);
    }

    /** The choices made, for the kinds' {@code toString}: {@code , downloadName=..., contentType=..., inline}. */
    final String choicesText() {
        return (downloadName == null ? "" : ", downloadName=" + downloadName)
                + (contentType == null ? "" : ", contentType=" + contentType)
                + (disposition == null ? "" : ", " + disposition.token());
    }
}
