package dev.xaccel.filter.internal.receipt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.xaccel.filter.ConfigException;
import dev.xaccel.filter.SignedLinks;
import dev.xaccel.filter.XAccelReceipt;

import dev.xaccel.filter.internal.config.ReceiptSettings;
import dev.xaccel.filter.internal.metrics.FilterStatistics;

/** The bounds of waiting identifiers, without nginx: nothing ever answers them. */
class ReceiptsTest {

    static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void atMostMaxWaitingWaitTheOldestReportedUnreceiptedAtOnce() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            String first = r.issue("/f", null);
            String eleventh = null;
            for (int i = 1; i < Receipts.MAX_WAITING + 10; i++) {
                String id = r.issue("/f", null);
                eleventh = i == 10 ? id : eleventh;
            }
            assertEquals(Receipts.MAX_WAITING, r.waiting());
            assertEquals(10, stats.getReceiptsUnreceipted());
            r.accept("xr1 " + first + " 200 10 c=OK 0.001 r=-");
            r.accept("xr1 " + eleventh + " 200 10 c=OK 0.001 r=-");
            assertEquals(1, stats.getReceiptLinesLate(), "the oldest was reported: its line comes late");
            assertEquals(1, stats.getReceiptsComplete(), "the eleventh still waited");
        }
    }

    @Test
    void onlyWhatWaitedPastTheTimeoutIsReportedUnreceipted() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        long timeout = TimeUnit.SECONDS.toNanos(s.timeoutSeconds());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            String old = r.issue("/old", null);
            Thread.sleep(20);
            long between = System.nanoTime();
            Thread.sleep(20);
            String young = r.issue("/young", null);
            r.expire(between);
            assertEquals(0, stats.getReceiptsUnreceipted(), "within the timeout");
            r.expire(between + timeout);
            assertEquals(1, stats.getReceiptsUnreceipted(), "the old one's bound passed, not the young one's");
            assertEquals(1, r.waiting());
            r.accept("xr1 " + young + " 200 10 c=OK 0.001 r=-");
            r.accept("xr1 " + old + " 200 10 c=OK 0.001 r=-");
            assertEquals(1, stats.getReceiptsComplete());
            assertEquals(1, stats.getReceiptLinesLate());
            assertEquals(0, r.waiting());
        }
    }

    @Test
    void aPortInUseFailsStartupAndAClosedOneIsFreeAtOnce() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        int port = freeUdpPort();
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + port);
        try (DatagramSocket taken = new DatagramSocket(port, InetAddress.getLoopbackAddress())) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> Receipts.start("test", s, getClass().getClassLoader(), stats));
            assertTrue(e.getMessage().contains("receipts") && e.getMessage().contains("127.0.0.1:" + port),
                    e.getMessage());
        }
        Receipts first = Receipts.start("test", s, getClass().getClassLoader(), stats);
        assertThrows(ConfigException.class, () -> Receipts.start("other", s, getClass().getClassLoader(), stats),
                "a second filter on the same port");
        // a redeployed application: the old filter closes, the new one binds the same port at once
        for (int i = 0; i < 20; i++) {
            first.close();
            first = Receipts.start("test", s, getClass().getClassLoader(), stats);
        }
        String id = first.issue("/f", null);
        try (DatagramSocket nginx = new DatagramSocket()) {
            byte[] line = ("<190>Dec  6 06:00:00 xaccel: xr1 " + id + " 200 7 c=OK 0.001 r=-")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            nginx.send(new java.net.DatagramPacket(line, line.length, InetAddress.getLoopbackAddress(), port));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (stats.getReceiptsComplete() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, stats.getReceiptsComplete(), "the last one reads the port");
        first.close();
    }

    @Test
    void aLineCountsOnceAndOnlyForAnIssuedId() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            String id = r.issue("/f", "t");
            String line = "xr1 " + id + " 200 10 c=OK 0.001 r=-";
            r.accept(line);
            r.accept(line);
            r.accept("xr1 0123456789abcdef0123456789abcdef 200 10 c=OK 0.001 r=-");
            r.accept("garbage");
            assertEquals(1, stats.getReceiptsComplete());
            assertEquals(10, stats.getReceiptBytesFrontEnd());
            assertEquals(1, stats.getReceiptLinesStale());
            assertEquals(1, stats.getReceiptLinesForged());
            assertEquals(1, stats.getReceiptLinesMalformed());
            assertEquals(0, stats.getReceiptLinesLate());
            assertEquals(0, r.waiting());
        }
    }

    @Test
    void aSignedLinksLineCountsEachTimeOnlyWhenTheSecretSignedIt() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        SignedLinks links = SignedLinks.create("0123456789abcdef0123456789abcdef", "/s/", Duration.ofHours(1));
        String link = links.sign("a.mp3", Instant.ofEpochSecond(1765000000));
        String md5 = link.substring(link.indexOf("md5=") + 4, link.indexOf("&expires="));
        String line = "xs1 " + md5 + " 1765000000 200 10 c=OK 0.001 r=\"-\" u=/s/a.mp3";
        BlockingQueue<XAccelReceipt> got = new LinkedBlockingQueue<>();
        ReceiptSettings listened = new ReceiptSettings(true, s.address(), null, null, List.of(got::add),
                s.timeoutSeconds(), s.queue());
        List<XAccelReceipt> two = new ArrayList<>();
        try (Receipts r = Receipts.start("test", listened, getClass().getClassLoader(), stats, links)) {
            r.accept(line);
            r.accept(line);
            r.accept(line.replace("a.mp3", "b.mp3"));
            r.accept("xs1 " + md5 + " 1765000000 200 10 c=OK 0.001 u=/s/a.mp3");
            two.add(got.poll(10, TimeUnit.SECONDS));
            two.add(got.poll(10, TimeUnit.SECONDS));
        }
        assertEquals(2, stats.getReceiptsComplete(), "a link may be fetched many times");
        assertEquals(20, stats.getReceiptBytesFrontEnd());
        assertEquals(1, stats.getReceiptLinesForged());
        assertEquals(1, stats.getReceiptLinesMalformed());
        assertEquals("s/a.mp3", two.get(0).file());
        assertEquals(XAccelReceipt.SIGNED_LINK_TAG, two.get(1).tag());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            r.accept(line);
        }
        assertEquals(2, stats.getReceiptLinesForged(), "without the secret nothing verifies");
    }

    @Test
    void aLineAfterItsReceiptWasReportedUnreceiptedCountsLateOnce() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            String id = r.issue("/f", "t");
            r.expire(System.nanoTime() + java.util.concurrent.TimeUnit.DAYS.toNanos(1));
            assertEquals(1, stats.getReceiptsUnreceipted());
            String line = "xr1 " + id + " 200 10 c=OK 0.001 r=-";
            r.accept(line);
            r.accept(line);
            assertEquals(1, stats.getReceiptLinesLate(), "the first line after the bound is late");
            assertEquals(1, stats.getReceiptLinesStale(), "its replay is stale");
            assertEquals(0, stats.getReceiptsComplete(), "a late line makes no second receipt");
        }
    }

    @Test
    void onlyTheNewestUnreceiptedAreRemembered() throws Exception {
        FilterStatistics stats = new FilterStatistics("", () -> 0);
        ReceiptSettings s = ReceiptSettings.parseMode(ReceiptSettings.OFF, "127.0.0.1:" + freeUdpPort());
        try (Receipts r = Receipts.start("test", s, getClass().getClassLoader(), stats)) {
            String first = r.issue("/f", null);
            String last = null;
            for (int i = 0; i < Receipts.MAX_REMEMBERED_LATE; i++) {
                last = r.issue("/f", null);
            }
            r.expire(System.nanoTime() + java.util.concurrent.TimeUnit.DAYS.toNanos(1));
            r.accept("xr1 " + first + " 200 10 c=OK 0.001 r=-");
            r.accept("xr1 " + last + " 200 10 c=OK 0.001 r=-");
            assertEquals(1, stats.getReceiptLinesStale(), "the oldest is forgotten: stale");
            assertEquals(1, stats.getReceiptLinesLate(), "the newest is remembered: late");
        }
    }
}
