package dev.xaccel.filter;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

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
 *
 * <p>A remote answer has no {@code accelExpires}: it always carries {@code X-Accel-Expires: 0}, since a cached
 * decision would name a presigned URL that expired.
 */
public final class XAccelRemote extends Declaration<XAccelRemote> {

    private final URI url;

    private XAccelRemote(URI url, Choices choices) {
        super(choices);
        this.url = url;
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
        return new XAccelRemote(ascii, Choices.NONE);
    }

    @Override
    XAccelRemote with(Choices choices) {
        return new XAccelRemote(url, choices);
    }

    /**
     * The URL, as given to {@link #of(URI)} with non-ASCII characters percent-encoded.
     *
     * @return the (presigned) URL; treat it as a credential
     */
    public URI url() {
        return url;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof XAccelRemote r && url.equals(r.url) && sameChoices(r);
    }

    @Override
    public int hashCode() {
        return 31 * url.hashCode() + choicesHash();
    }

    /** Never shows the URL's query. */
    @Override
    public String toString() {
        return "XAccelRemote[" + Uris.withoutQuery(url) + choicesText() + "]";
    }
}
