package dev.xaccel.filter;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What one delivery came to, handed to every {@link XAccelReceiptListener}: for an offloaded answer what the front
 * end reported it sent (nginx's access log line, matched by the receipt's identifier), for an answer the filter
 * sent itself what it wrote. Immutable.
 *
 * @param id       the receipt's identifier (32 hex digits), as in the {@code X-Xaccel-Receipt} header nginx logged
 *                 (a fresh one for a signed link's fetch and for what the filter sent itself)
 * @param file     the file as the application named it: the declared path, or the request's path within the
 *                 application in mapped mode (never sent to the client); for a signed link, its path as signed
 *                 without the leading {@code /} (e.g. {@code s/media/alice/cover.jpg}); for a remote object
 *                 ({@link XAccelRemote}), its URL without the query, which holds the presigned credential (e.g.
 *                 {@code https://bucket.s3.eu-west-1.amazonaws.com/books/Chapter%201.mp3})
 * @param tag      the declaration's {@link Declaration#tag(String)}, or {@code null}; {@link #SIGNED_LINK_TAG}
 *                 for a signed link's fetch
 * @param outcome  complete, aborted, or unreceipted (the front end never reported it)
 * @param servedBy who sent the bytes
 * @param status   the status the client got, 0 when unreceipted
 * @param bytes    body bytes sent, -1 when unknown (unreceipted, or a direct send the client broke off)
 * @param ranges   the request's {@code Range} header, or {@code null}
 * @param duration from the request to the last byte as the sender measured it; for unreceipted, the wait
 */
public record XAccelReceipt(String id, String file, String tag, Outcome outcome, ServedBy servedBy, int status,
        long bytes, String ranges, Duration duration) {

    /**
     * The tag of a signed link's receipt ({@link SignedLinks}): nginx served it without asking the application, so
     * no declaration tagged it; its {@link #file} is the link's path without the leading {@code /}.
     */
    public static final String SIGNED_LINK_TAG = "xaccel:signed-link";

    /** How a delivery ended. */
    public enum Outcome {
        /** The whole answer went out (nginx's {@code $request_completion} is {@code OK}). */
        COMPLETE,
        /** The client went away, or the sender stopped, before the end of the answer. */
        ABORTED,
        /** The front end never reported the offload within {@code receiptTimeout}: it died, or its log is lost. */
        UNRECEIPTED;

        /**
         * The lower-case name, as meters and logs show it.
         *
         * @return e.g. {@code complete}
         */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Who sent the bytes. */
    public enum ServedBy {
        /** The front end, after the offload answer. */
        FRONT_END,
        /** The filter itself (no front end asked, offload not allowed, or a 304/412/416 it decided). */
        FILTER;

        /**
         * The lower-case name with {@code _}, as meters show it.
         *
         * @return e.g. {@code front_end}
         */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * Checks that the parts every receipt has are there.
     *
     * @param id       the identifier
     * @param file     the file as the application named it
     * @param tag      the tag, or {@code null}
     * @param outcome  how it ended
     * @param servedBy who sent it
     * @param status   the status, 0 when unreceipted
     * @param bytes    body bytes, -1 when unknown
     * @param ranges   the {@code Range} asked, or {@code null}
     * @param duration how long it took
     */
    public XAccelReceipt {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(servedBy, "servedBy");
        Objects.requireNonNull(duration, "duration");
    }

    /**
     * The tag, if the declaration had one.
     *
     * @return the tag
     */
    public Optional<String> tagged() {
        return Optional.ofNullable(tag);
    }
}
