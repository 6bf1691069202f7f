package dev.xaccel.filter;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.Uris;

/**
 * Immutable description of an object in a remote store (S3 and compatible) that the application wants to send: a
 * short-lived presigned URL plus, as for {@link XAccelFile}, an optional download name, content type and
 * disposition. The application presigns with the SDK it already uses; the filter only hands the URL on.
 *
 * <pre>{@code
 * URI url = presigner.presignGetObject(...).url().toURI();   // lifetime: seconds (nginx uses it at once)
 * XAccel.sendRemote(req, resp, XAccelRemote.of(url).downloadName("Chapter 1.mp3"));
 * }</pre>
 *
 * The URL's origin ({@code scheme://host[:port]}) must be listed in the filter's {@code remoteOrigins}, otherwise
 * the request is answered {@code 500} (an application bug must not turn the front end into an open proxy). Behind
 * nginx the answer is {@code X-Accel-Redirect: /_xaccel/remote/<scheme>/<host>/<path>?<query>} and nginx fetches
 * the object from the store ({@code docs/nginx/xaccel-remote.conf.template}); otherwise the filter streams it
 * itself. The URL's query is a credential: it never appears in {@link #toString()} or a log line.
 */
public final class XAccelRemote implements Declaration {

    private final URI url;
    private final String downloadName;
    private final String contentType;
    private final Disposition disposition;

    private XAccelRemote(URI url, String downloadName, String contentType, Disposition disposition) {
        this.url = url;
        this.downloadName = downloadName;
        this.contentType = contentType;
        this.disposition = disposition;
    }

    /**
     * @param url an absolute {@code http} or {@code https} URL with a host, without user info or fragment, usually
     *            presigned; non-ASCII characters are percent-encoded as UTF-8 ({@link URI#toASCIIString()})
     * @return the description of that object, with the filter's defaults for everything else
     * @throws NullPointerException     if {@code url} is null
     * @throws IllegalArgumentException if the URL is not of that form
     */
    public static XAccelRemote of(URI url) {
        Objects.requireNonNull(url, "url");
        URI ascii = URI.create(url.toASCIIString());
        String scheme = ascii.getScheme() == null ? "" : ascii.getScheme().toLowerCase(Locale.ROOT);
        if (!ascii.isAbsolute() || ascii.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))
                || ascii.getHost() == null || ascii.getRawUserInfo() != null || ascii.getRawFragment() != null) {
            throw new IllegalArgumentException(Messages.get("remote.url", Uris.withoutQuery(ascii)));
        }
        return new XAccelRemote(ascii, null, null, null);
    }

    /**
     * The name the browser should save the object as (any Unicode; encoded per RFC 6266/8187).
     *
     * @param name the name, or {@code null} for none
     * @return a copy with that name
     */
    public XAccelRemote downloadName(String name) {
        return new XAccelRemote(url, name == null || name.isBlank() ? null : name, contentType, disposition);
    }

    /**
     * An explicit {@code Content-Type}, e.g. {@code audio/mpeg}; it wins over the store's.
     *
     * @param type the media type, or {@code null} for the default lookup (by the name of the URL's last segment)
     * @return a copy with that type
     * @throws IllegalArgumentException if it contains control characters or non-ASCII
     */
    public XAccelRemote contentType(String type) {
        return new XAccelRemote(url, downloadName, XAccelFile.checkedContentType(type), disposition);
    }

    /**
     * Ask the browser to download ({@code Content-Disposition: attachment}).
     *
     * @return a copy with that disposition
     */
    public XAccelRemote attachment() {
        return new XAccelRemote(url, downloadName, contentType, Disposition.ATTACHMENT);
    }

    /**
     * Ask the browser to display the object ({@code Content-Disposition: inline}).
     *
     * @return a copy with that disposition
     */
    public XAccelRemote inline() {
        return new XAccelRemote(url, downloadName, contentType, Disposition.INLINE);
    }

    /**
     * The URL, as given to {@link #of(URI)} with non-ASCII characters percent-encoded.
     *
     * @return the (presigned) URL; treat it as a credential
     */
    public URI url() {
        return url;
    }

    /**
     * The name the browser should save the object as.
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
     * The disposition chosen for this object.
     *
     * @return {@link Disposition#INLINE}, {@link Disposition#ATTACHMENT}, or empty when the filter's default applies
     */
    public Optional<Disposition> disposition() {
        return Optional.ofNullable(disposition);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof XAccelRemote)) {
            return false;
        }
        XAccelRemote r = (XAccelRemote) o;
        return url.equals(r.url) && Objects.equals(downloadName, r.downloadName)
                && Objects.equals(contentType, r.contentType) && disposition == r.disposition;
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, downloadName, contentType, disposition);
    }

    /** Never shows the URL's query. */
    @Override
    public String toString() {
        return "XAccelRemote[" + Uris.withoutQuery(url) + (downloadName == null ? "" : ", downloadName=" + downloadName)
                + (contentType == null ? "" : ", contentType=" + contentType)
                + (disposition == null ? "" : ", " + disposition.token()) + "]";
    }
}
