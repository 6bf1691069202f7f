package dev.xaccel.filter;

import java.util.Optional;
import java.util.OptionalLong;

import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.ValueRules;

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
 * <p>nginx's per-response settings ({@link #limitRate(long)}, {@link #buffering(boolean)}, {@link #charset(String)},
 * and for a local file {@link XAccelFile#accelExpires(String)}) override the filter's init-params of the same name
 * for this answer only. They are checked by the same rules as those init-params, here, when the declaration is
 * made: a value the rules refuse is a programming error of the application ({@link IllegalArgumentException}
 * naming the value), never an error answer at request time. Front ends without such headers (Apache
 * mod_xsendfile, lighttpd, Caddy) ignore them; docs/filter.md says what applies when the filter sends the file
 * itself.
 *
 * @param <T> the kind itself, which the withers return
 */
public abstract class Declaration<T extends Declaration<T>> {

    private final Choices choices;

    Declaration(Choices choices) {
        this.choices = choices;
    }

    /**
     * Everything a declaration may choose besides the file: {@code null} where the filter's default applies.
     *
     * @param downloadName the download name
     * @param contentType  the media type
     * @param disposition  inline or attachment
     * @param limitRate    bytes per second for {@code X-Accel-Limit-Rate}
     * @param buffering    {@code X-Accel-Buffering}
     * @param charset      {@code X-Accel-Charset}
     * @param accelExpires {@code X-Accel-Expires} (local files only)
     * @param tag          the application's label for the delivery receipt
     */
    record Choices(String downloadName, String contentType, Disposition disposition, Long limitRate,
            Boolean buffering, String charset, String accelExpires, String tag) {

        /** No choice made: the filter's defaults. */
        static final Choices NONE = new Choices(null, null, null, null, null, null, null, null);

        Choices presentation(String name, String type, Disposition d) {
            return new Choices(name, type, d, limitRate, buffering, charset, accelExpires, tag);
        }

        Choices nginx(Long rate, Boolean buffer, String cs, String expires) {
            return new Choices(downloadName, contentType, disposition, rate, buffer, cs, expires, tag);
        }

        Choices tagged(String t) {
            return new Choices(downloadName, contentType, disposition, limitRate, buffering, charset, accelExpires,
                    t);
        }

        /** For the kinds' {@code toString}: {@code , downloadName=..., contentType=..., inline, limitRate=...}. */
        String text() {
            return (downloadName == null ? "" : ", downloadName=" + downloadName)
                    + (contentType == null ? "" : ", contentType=" + contentType)
                    + (disposition == null ? "" : ", " + disposition.token())
                    + (limitRate == null ? "" : ", limitRate=" + limitRate)
                    + (buffering == null ? "" : ", buffering=" + (buffering ? "yes" : "no"))
                    + (charset == null ? "" : ", charset=" + charset)
                    + (accelExpires == null ? "" : ", accelExpires=" + accelExpires)
                    + (tag == null ? "" : ", tag=" + tag);
        }
    }

    /** The same kind of declaration of the same thing with these choices. */
    abstract T with(Choices choices);

    /** The choices made so far, for the kinds' own withers. */
    final Choices choices() {
        return choices;
    }

    /**
     * The name the browser should save the file as (any Unicode; encoded per RFC 6266/8187).
     *
     * @param name the name, or {@code null} for none
     * @return a copy with that name
     */
    public T downloadName(String name) {
        return with(choices.presentation(name == null || name.isBlank() ? null : name, choices.contentType,
                choices.disposition));
    }

    /**
     * An explicit {@code Content-Type}, e.g. {@code audio/mpeg}; for a remote object it wins over the store's.
     *
     * @param type the media type, or {@code null} for the default lookup by name
     * @return a copy with that type
     * @throws IllegalArgumentException if it contains control characters or non-ASCII
     */
    public T contentType(String type) {
        return with(choices.presentation(choices.downloadName, checkedContentType(type), choices.disposition));
    }

    /**
     * Ask the browser to download ({@code Content-Disposition: attachment}).
     *
     * @return a copy with that disposition
     */
    public T attachment() {
        return with(choices.presentation(choices.downloadName, choices.contentType, Disposition.ATTACHMENT));
    }

    /**
     * Ask the browser to display the file ({@code Content-Disposition: inline}).
     *
     * @return a copy with that disposition
     */
    public T inline() {
        return with(choices.presentation(choices.downloadName, choices.contentType, Disposition.INLINE));
    }

    /**
     * nginx sends this answer at most this fast ({@code X-Accel-Limit-Rate}), instead of the {@code limitRate}
     * init-param: e.g. free users throttled, paying ones not ({@code 0}). Applies to offloaded answers; the
     * filter does not throttle what it sends itself.
     *
     * @param bytesPerSecond bytes per second, {@code 0} for unlimited
     * @return a copy with that rate
     * @throws IllegalArgumentException if it is negative (the {@code limitRate} init-param's rule)
     */
    public T limitRate(long bytesPerSecond) {
        ValueRules.limitRate(bytesPerSecond).ifPresent(why -> {
            throw invalid(InitParams.LIMIT_RATE, bytesPerSecond, why);
        });
        return with(choices.nginx(bytesPerSecond, choices.buffering, choices.charset, choices.accelExpires));
    }

    /**
     * {@code X-Accel-Buffering: yes|no} on this answer. nginx honours it on a response it proxies, which is
     * the answer the filter sends itself behind nginx ({@code false}: nginx passes the bytes on as they come
     * instead of reading the whole body ahead of a slow client). nginx does not carry it over to the location
     * an {@code X-Accel-Redirect} names, so an offloaded answer keeps that location's {@code proxy_buffering}
     * (docs/filter.md).
     *
     * @param buffering {@code false} for {@code no}, {@code true} for {@code yes}
     * @return a copy with that setting
     */
    public T buffering(boolean buffering) {
        return with(choices.nginx(choices.limitRate, buffering, choices.charset, choices.accelExpires));
    }

    /**
     * The charset of this answer instead of the {@code charset} init-param: {@code X-Accel-Charset} when
     * offloaded (nginx appends it to the {@code Content-Type}), {@code ;charset=} on the {@code Content-Type}
     * when the filter sends the file itself.
     *
     * @param charset an HTTP token known to nginx, e.g. {@code utf-8}
     * @return a copy with that charset
     * @throws IllegalArgumentException if it is not an HTTP token (the {@code charset} init-param's rule)
     */
    public T charset(String charset) {
        ValueRules.token(charset).ifPresent(why -> {
            throw invalid(InitParams.CHARSET, charset, why);
        });
        return with(choices.nginx(choices.limitRate, choices.buffering, charset, choices.accelExpires));
    }

    /**
     * The application's label of this delivery (a user, an item, a tenant: {@code "user-42"}), handed back in its
     * {@link XAccelReceipt}; never sent to the client or the front end.
     *
     * @param tag any text, or {@code null} for none
     * @return a copy with that tag
     */
    public T tag(String tag) {
        return with(choices.tagged(tag));
    }

    /**
     * The label given with {@link #tag(String)}.
     *
     * @return the tag, or empty for none
     */
    public Optional<String> tag() {
        return Optional.ofNullable(choices.tag);
    }

    /**
     * The name the browser should save the file as.
     *
     * @return the download name, or empty for none
     */
    public Optional<String> downloadName() {
        return Optional.ofNullable(choices.downloadName);
    }

    /**
     * The explicit content type.
     *
     * @return the media type, or empty when the filter looks it up
     */
    public Optional<String> contentType() {
        return Optional.ofNullable(choices.contentType);
    }

    /**
     * The disposition chosen for this answer.
     *
     * @return {@link Disposition#INLINE}, {@link Disposition#ATTACHMENT}, or empty when the filter's default applies
     */
    public Optional<Disposition> disposition() {
        return Optional.ofNullable(choices.disposition);
    }

    /**
     * The rate chosen for this answer.
     *
     * @return bytes per second, or empty when the {@code limitRate} init-param applies
     */
    public OptionalLong limitRate() {
        return choices.limitRate == null ? OptionalLong.empty() : OptionalLong.of(choices.limitRate);
    }

    /**
     * The buffering chosen for this answer.
     *
     * @return {@code false} for {@code X-Accel-Buffering: no}, or empty when none is sent
     */
    public Optional<Boolean> buffering() {
        return Optional.ofNullable(choices.buffering);
    }

    /**
     * The charset chosen for this answer.
     *
     * @return the charset, or empty when the {@code charset} init-param applies
     */
    public Optional<String> charset() {
        return Optional.ofNullable(choices.charset);
    }

    /** The refusal of a per-answer value: names the setting, the value and the rule it breaks. */
    static IllegalArgumentException invalid(String setting, Object value, String why) {
        return new IllegalArgumentException(Messages.get("file.setting", setting, String.valueOf(value), why));
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
        return choices.equals(o.choices);
    }

    /** The choices' hash (for the kinds' {@code hashCode}). */
    final int choicesHash() {
        return choices.hashCode();
    }

    /** The choices made, for the kinds' {@code toString}. */
    final String choicesText() {
        return choices.text();
    }
}
