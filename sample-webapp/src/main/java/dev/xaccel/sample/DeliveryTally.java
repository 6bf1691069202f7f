package dev.xaccel.sample;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceiptListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The sample's receipt listener (web.xml: the xaccel filter's {@code receiptListener}): completed downloads per book
 * and chapter, bytes per user, aborted and unreceipted downloads, in memory, for {@code /api/stats}. A chapter's
 * declaration carries the tag {@link #chapterTag}; receipts without it (covers, mapped {@code /library/} URLs) count
 * only as untagged. The podcast feeds' enclosures are signed links nginx serves alone: their receipts
 * ({@link XAccelReceipt#SIGNED_LINK_TAG}, file {@code f/library/<Author>/<Title>/<chapter>}) count as enclosure
 * fetches per book and episode (every fetch counts: a podcast client may fetch an episode many times, by ranges).
 * The list page's covers and author pictures are signed links too ({@link SampleApp#LINK_PREFIX}): their receipts
 * count as cover fetches per book (file {@code s/library/<Author>/<Title>/<image>}) or per author (file
 * {@code s/library/<Author>/author.jpg}). A browser's cache hit sends nothing, so only fetches nginx served count.
 * Bounded: at most {@code maxKeys} chapters, as many enclosures and as many users are tallied, a receipt for a new
 * one beyond that is counted in {@code overflow} instead (the existing counts stay exact); covers likewise.
 */
public final class DeliveryTally implements XAccelReceiptListener {

    /** Chapters (and, separately, users) tallied at most. */
    public static final int MAX_KEYS = 10_000;

    private static final String PREFIX = "chapter\t";
    /** The enclosures' signed-link prefix ({@link SampleApp#FEED_LINK_PREFIX}) as a receipt's file starts. */
    private static final String ENCLOSURE = SampleApp.FEED_LINK_PREFIX.substring(1);
    /** The covers' signed-link prefix ({@link SampleApp#LINK_PREFIX}) as a receipt's file starts. */
    private static final String COVER = SampleApp.LINK_PREFIX.substring(1);
    /** The one author picture's name in an author's folder (the nginx template's $xaccel_signed_image). */
    private static final String AUTHOR_PICTURE = "author.jpg";

    /** The tally the filter made in this application (one per class loader: one per web application). */
    private static volatile DeliveryTally current;

    private final int maxKeys;
    /** book id + "\t" + chapter index: [complete, aborted]. */
    private final Map<String, long[]> chapters = new LinkedHashMap<>();
    private final Map<String, Long> bytesPerUser = new LinkedHashMap<>();
    /** book id + "\t" + episode file name: [complete, aborted]. */
    private final Map<String, long[]> enclosures = new LinkedHashMap<>();
    private long enclosureFetches;
    /** [book id or "", author or "", file name] (names may hold any character): [complete, aborted]. */
    private final Map<List<String>, long[]> covers = new LinkedHashMap<>();
    private long coverFetches;
    private long complete;
    private long aborted;
    private long unreceipted;
    private long untagged;
    private long overflow;

    /** The one the filter instantiates ({@code receiptListener}); {@link #current()} returns it. */
    public DeliveryTally() {
        this(MAX_KEYS);
        current = this;
    }

    DeliveryTally(int maxKeys) {
        this.maxKeys = maxKeys;
    }

    /** @return the tally of this application, or null when receipts are off (the filter made none) */
    public static DeliveryTally current() {
        return current;
    }

    /**
     * The tag a chapter's declaration carries. Tab separated: user names hold no tab (nor ':' or ','), book ids
     * are hex.
     */
    public static String chapterTag(String user, String bookId, int chapter) {
        return PREFIX + (user == null ? "" : user) + "\t" + bookId + "\t" + chapter;
    }

    @Override
    public synchronized void onReceipt(XAccelReceipt receipt) {
        String tag = receipt.tag();
        if (XAccelReceipt.SIGNED_LINK_TAG.equals(tag) && receipt.file().startsWith(ENCLOSURE)
                && (receipt.status() == 200 || receipt.status() == 206)) {
            enclosure(receipt);
            return;
        }
        if (XAccelReceipt.SIGNED_LINK_TAG.equals(tag) && receipt.file().startsWith(COVER)
                && (receipt.status() == 200 || receipt.status() == 206)) {
            cover(receipt);
            return;
        }
        String[] parts = tag == null || !tag.startsWith(PREFIX) ? null : tag.substring(PREFIX.length()).split("\t");
        if (parts == null || parts.length != 3) {
            untagged++;
            return;
        }
        switch (receipt.outcome()) {
            case COMPLETE -> complete++;
            case ABORTED -> aborted++;
            case UNRECEIPTED -> unreceipted++;
            default -> throw new IllegalStateException(receipt.outcome().name());
        }
        if (receipt.outcome() != XAccelReceipt.Outcome.UNRECEIPTED) {
            long[] counts = bounded(chapters, parts[1] + "\t" + parts[2], new long[2]);
            if (counts != null) {
                counts[receipt.outcome() == XAccelReceipt.Outcome.COMPLETE ? 0 : 1]++;
            }
        }
        if (receipt.bytes() > 0 && !parts[0].isEmpty() && bounded(bytesPerUser, parts[0], 0L) != null) {
            bytesPerUser.merge(parts[0], receipt.bytes(), Long::sum);
        }
    }

    /** A fetch of a feed's enclosure: the book is the folder (its id as the library makes it), the episode the file. */
    private void enclosure(XAccelReceipt receipt) {
        String relative = receipt.file().substring(ENCLOSURE.length());
        int slash = relative.lastIndexOf('/');
        if (slash <= 0) {
            untagged++;
            return;
        }
        enclosureFetches++;
        long[] counts = bounded(enclosures, Library.id(relative.substring(0, slash)) + "\t"
                + relative.substring(slash + 1), new long[2]);
        if (counts != null) {
            counts[receipt.outcome() == XAccelReceipt.Outcome.COMPLETE ? 0 : 1]++;
        }
    }

    /** A fetch of a cover (Author/Title/image: its book) or of an author's picture (Author/author.jpg). */
    private void cover(XAccelReceipt receipt) {
        String[] parts = receipt.file().substring(COVER.length()).split("/", -1);
        List<String> key;
        if (parts.length == 3) {
            key = List.of(Library.id(parts[0] + "/" + parts[1]), "", parts[2]);
        } else if (parts.length == 2 && AUTHOR_PICTURE.equals(parts[1])) {
            key = List.of("", parts[0], parts[1]);
        } else {
            untagged++;
            return;
        }
        coverFetches++;
        long[] counts = bounded(covers, key, new long[2]);
        if (counts != null) {
            counts[receipt.outcome() == XAccelReceipt.Outcome.COMPLETE ? 0 : 1]++;
        }
    }

    /** The value of key, added if there is room; null (and counted) when the map is full. */
    private <K, V> V bounded(Map<K, V> map, K key, V empty) {
        V v = map.get(key);
        if (v == null) {
            if (map.size() >= maxKeys) {
                overflow++;
                return null;
            }
            map.put(key, empty);
            v = empty;
        }
        return v;
    }

    /** One chapter's counts. */
    public record Chapter(String book, int chapter, long complete, long aborted) {
    }

    /** One enclosure's fetches: its book, its file's name, fetches completed and aborted. */
    public record Enclosure(String book, String file, long complete, long aborted) {
    }

    /**
     * One image's fetches by signed link: a cover ({@code book} its book's id, {@code author} null) or an author's
     * picture ({@code book} null, {@code author} the author's folder), its file's name, completed and aborted.
     */
    public record Cover(String book, String author, String file, long complete, long aborted) {
    }

    /** What {@code /api/stats} shows: a consistent copy. */
    public record Snapshot(long complete, long aborted, long unreceipted, long untagged, long overflow,
                           List<Chapter> chapters, Map<String, Long> bytesPerUser, long enclosureFetches,
                           List<Enclosure> enclosures, long coverFetches, List<Cover> covers) {
    }

    public synchronized Snapshot snapshot() {
        List<Chapter> list = new ArrayList<>();
        chapters.forEach((key, counts) -> {
            int tab = key.indexOf('\t');
            list.add(new Chapter(key.substring(0, tab), Integer.parseInt(key.substring(tab + 1)), counts[0],
                    counts[1]));
        });
        List<Enclosure> fetched = new ArrayList<>();
        enclosures.forEach((key, counts) -> {
            int tab = key.indexOf('\t');
            fetched.add(new Enclosure(key.substring(0, tab), key.substring(tab + 1), counts[0], counts[1]));
        });
        List<Cover> images = new ArrayList<>();
        covers.forEach((key, counts) -> {
            images.add(new Cover(key.get(0).isEmpty() ? null : key.get(0), key.get(1).isEmpty() ? null : key.get(1),
                    key.get(2), counts[0], counts[1]));
        });
        return new Snapshot(complete, aborted, unreceipted, untagged, overflow, list, new TreeMap<>(bytesPerUser),
                enclosureFetches, fetched, coverFetches, images);
    }
}
