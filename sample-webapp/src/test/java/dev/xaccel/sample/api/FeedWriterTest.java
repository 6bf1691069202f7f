package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.xaccel.sample.FeedXml;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class FeedWriterTest {

    static final Instant T0 = Instant.parse("2026-12-01T07:08:09Z");

    static FeedWriter.Channel channel() {
        return new FeedWriter.Channel("What? Why + How & <more>", "Anonymous", "http://127.0.0.1:8080/",
                "A book", "http://127.0.0.1:8080/s/library/A/T/c.png?md5=x&expires=1",
                List.of(new FeedWriter.Episode(1, "Part 1? Questions + answers", "g-1",
                                "http://127.0.0.1:8080/f/library/A/T/1.wav?md5=a&expires=2", 1234, "audio/wav", T0,
                                Duration.ofSeconds(3725)),
                        new FeedWriter.Episode(2, "Part\u0001 2 \"quoted\" \uD83C\uDFA7", "g-2",
                                "http://127.0.0.1:8080/f/library/A/T/2.wav?md5=b&expires=2", 99, "audio/wav",
                                T0.plusSeconds(60), null)));
    }

    static byte[] write(FeedWriter.Channel c) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        FeedWriter.write(c, out);
        return out.toByteArray();
    }

    @Test
    void rss2WithTheItunesNamespace() throws Exception {
        byte[] xml = write(channel());
        assertTrue(new String(xml, StandardCharsets.UTF_8).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
        Document doc = FeedXml.parse(xml);
        Element ch = FeedXml.channel(doc);
        assertEquals("What? Why + How & <more>", FeedXml.text(ch, "title"));
        assertEquals("http://127.0.0.1:8080/", FeedXml.text(ch, "link"));
        assertEquals("A book", FeedXml.text(ch, "description"));
        assertEquals("Anonymous", FeedXml.itunes(ch, "author"));
        assertEquals("serial", FeedXml.itunes(ch, "type"));
        assertEquals("false", FeedXml.itunes(ch, "explicit"));
        assertEquals("http://127.0.0.1:8080/s/library/A/T/c.png?md5=x&expires=1",
                FeedXml.child(ch, FeedXml.ITUNES, "image").getAttribute("href"));
        assertEquals("http://127.0.0.1:8080/s/library/A/T/c.png?md5=x&expires=1",
                FeedXml.text(FeedXml.child(ch, null, "image"), "url"));

        List<Element> items = FeedXml.children(ch, null, "item");
        assertEquals(2, items.size());
        Element first = items.get(0);
        assertEquals("Part 1? Questions + answers", FeedXml.text(first, "title"));
        assertEquals("1", FeedXml.itunes(first, "episode"));
        Element enclosure = FeedXml.child(first, null, "enclosure");
        assertEquals("http://127.0.0.1:8080/f/library/A/T/1.wav?md5=a&expires=2", enclosure.getAttribute("url"));
        assertEquals("1234", enclosure.getAttribute("length"));
        assertEquals("audio/wav", enclosure.getAttribute("type"));
        Element guid = FeedXml.child(first, null, "guid");
        assertEquals("false", guid.getAttribute("isPermaLink"));
        assertEquals("g-1", guid.getTextContent());
        assertEquals("Tue, 01 Dec 2026 07:08:09 +0000", FeedXml.text(first, "pubDate"));
        assertEquals("01:02:05", FeedXml.itunes(first, "duration"));

        Element second = items.get(1);
        assertEquals("Part\uFFFD 2 \"quoted\" \uD83C\uDFA7", FeedXml.text(second, "title"),
                "a control character becomes U+FFFD, a surrogate pair stays");
        assertEquals(List.of(), FeedXml.children(second, FeedXml.ITUNES, "duration"), "unknown duration: left out");
        assertEquals("Tue, 01 Dec 2026 07:09:09 +0000", FeedXml.text(second, "pubDate"));
    }

    @Test
    void pubDatesAreRfc822WithTwoDigitDaysThatReadersParse() {
        String s = FeedWriter.RFC_822.format(Instant.parse("2027-03-07T00:00:00Z"));
        assertEquals("Sun, 07 Mar 2027 00:00:00 +0000", s);
        assertEquals(Instant.parse("2027-03-07T00:00:00Z"),
                ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    }

    @Test
    void durationsAreHoursMinutesSeconds() {
        assertEquals("00:00:00", FeedWriter.duration(Duration.ZERO));
        assertEquals("00:03:00", FeedWriter.duration(Duration.ofSeconds(180)));
        assertEquals("00:00:02", FeedWriter.duration(Duration.ofMillis(1500)));
        assertEquals("10:00:01", FeedWriter.duration(Duration.ofSeconds(36001)));
    }

    @Test
    void theParserRefusesEntities() {
        byte[] evil = ("<?xml version=\"1.0\"?><!DOCTYPE rss [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<rss version=\"2.0\"><channel><title>&x;</title></channel></rss>").getBytes(StandardCharsets.UTF_8);
        assertThrows(org.xml.sax.SAXParseException.class, () -> FeedXml.parse(evil));
    }
}
