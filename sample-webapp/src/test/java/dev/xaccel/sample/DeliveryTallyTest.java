package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.xaccel.filter.XAccelReceipt;
import dev.xaccel.filter.XAccelReceipt.Outcome;
import dev.xaccel.filter.XAccelReceipt.ServedBy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeliveryTallyTest {

    private static XAccelReceipt receipt(String tag, Outcome outcome, long bytes) {
        return new XAccelReceipt("0".repeat(32), "/lib/a.wav", tag, outcome, ServedBy.FRONT_END,
                outcome == Outcome.UNRECEIPTED ? 0 : 200, bytes, null, Duration.ofMillis(5));
    }

    @Test
    void countsChaptersUsersAndOutcomes() {
        DeliveryTally t = new DeliveryTally(10);
        t.onReceipt(receipt(DeliveryTally.chapterTag("ann", "b1", 0), Outcome.COMPLETE, 100));
        t.onReceipt(receipt(DeliveryTally.chapterTag("ann", "b1", 0), Outcome.COMPLETE, 100));
        t.onReceipt(receipt(DeliveryTally.chapterTag("bob", "b1", 1), Outcome.ABORTED, 30));
        t.onReceipt(receipt(DeliveryTally.chapterTag("bob", "b1", 1), Outcome.UNRECEIPTED, -1));
        t.onReceipt(receipt(null, Outcome.COMPLETE, 7));
        DeliveryTally.Snapshot s = t.snapshot();
        assertEquals(2, s.complete());
        assertEquals(1, s.aborted());
        assertEquals(1, s.unreceipted());
        assertEquals(1, s.untagged());
        assertEquals(0, s.overflow());
        assertEquals(List.of(new DeliveryTally.Chapter("b1", 0, 2, 0), new DeliveryTally.Chapter("b1", 1, 0, 1)),
                s.chapters());
        assertEquals(Map.of("ann", 200L, "bob", 30L), s.bytesPerUser());
    }

    private static XAccelReceipt fetch(String file, Outcome outcome, int status) {
        return new XAccelReceipt("1".repeat(32), file, XAccelReceipt.SIGNED_LINK_TAG, outcome, ServedBy.FRONT_END,
                status, 10, null, Duration.ofMillis(5));
    }

    @Test
    void countsEachEnclosureFetchPerBookAndEpisode() {
        DeliveryTally t = new DeliveryTally(10);
        t.onReceipt(fetch("f/library/Jules Verne/Le Tour/01 Un.mp3", Outcome.COMPLETE, 200));
        t.onReceipt(fetch("f/library/Jules Verne/Le Tour/01 Un.mp3", Outcome.COMPLETE, 206));
        t.onReceipt(fetch("f/library/Jules Verne/Le Tour/02 Deux.mp3", Outcome.ABORTED, 200));
        t.onReceipt(fetch("f/library/Jules Verne/Le Tour/02 Deux.mp3", Outcome.COMPLETE, 404));
        t.onReceipt(fetch("s/library/Jules Verne/Le Tour/cover.jpg", Outcome.COMPLETE, 200));
        DeliveryTally.Snapshot s = t.snapshot();
        String book = Library.id("Jules Verne/Le Tour");
        assertEquals(3, s.enclosureFetches());
        assertEquals(List.of(new DeliveryTally.Enclosure(book, "01 Un.mp3", 2, 0),
                new DeliveryTally.Enclosure(book, "02 Deux.mp3", 0, 1)), s.enclosures());
        assertEquals(1, s.untagged(), "a 404 is no enclosure fetch");
        assertEquals(0, s.complete(), "enclosures are not chapter downloads");
        assertEquals(1, s.coverFetches(), "a cover link is no enclosure fetch");
    }

    @Test
    void countsEachCoverAndAuthorPictureFetch() {
        DeliveryTally t = new DeliveryTally(10);
        t.onReceipt(fetch("s/library/Jules Verne/Le Tour/cover.jpg", Outcome.COMPLETE, 200));
        t.onReceipt(fetch("s/library/Jules Verne/Le Tour/cover.jpg", Outcome.ABORTED, 200));
        t.onReceipt(fetch("s/library/Jules Verne/author.jpg", Outcome.COMPLETE, 200));
        t.onReceipt(fetch("s/library/Jules Verne/Le Tour/cover.jpg", Outcome.COMPLETE, 304));
        t.onReceipt(fetch("s/library/Jules Verne/other.jpg", Outcome.COMPLETE, 200));
        DeliveryTally.Snapshot s = t.snapshot();
        assertEquals(3, s.coverFetches());
        assertEquals(List.of(new DeliveryTally.Cover(Library.id("Jules Verne/Le Tour"), null, "cover.jpg", 1, 1),
                new DeliveryTally.Cover(null, "Jules Verne", "author.jpg", 1, 0)), s.covers());
        assertEquals(2, s.untagged(), "a 304 delivered no image; other.jpg is no cover link's file");
        assertEquals(0, s.enclosureFetches());
        assertEquals(0, s.complete(), "covers are not chapter downloads");
    }

    @Test
    void newKeysBeyondTheBoundAreCountedNotKept() {
        DeliveryTally t = new DeliveryTally(2);
        for (int i = 0; i < 5; i++) {
            t.onReceipt(receipt(DeliveryTally.chapterTag("u" + i, "b", i), Outcome.COMPLETE, 10));
        }
        t.onReceipt(receipt(DeliveryTally.chapterTag("u0", "b", 0), Outcome.COMPLETE, 10));
        DeliveryTally.Snapshot s = t.snapshot();
        assertEquals(2, s.chapters().size());
        assertEquals(2, s.bytesPerUser().size());
        assertEquals(6, s.overflow(), "3 chapters and 3 users had no room");
        assertEquals(6, s.complete(), "the totals still count every receipt");
        assertEquals(2, s.chapters().get(0).complete(), "a kept chapter stays exact");
        assertEquals(20L, s.bytesPerUser().get("u0"));
    }
}
