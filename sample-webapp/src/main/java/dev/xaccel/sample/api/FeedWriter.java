package dev.xaccel.sample.api;

import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * Writes a podcast feed: RSS 2.0 with Apple's iTunes namespace, one {@code <item>} per episode in the given order,
 * each with {@code <enclosure url length type>}, a {@code <guid isPermaLink="false">}, an RFC 822
 * {@code <pubDate>} (two-digit day, GMT) and, when known, {@code <itunes:duration>} (HH:MM:SS). Text is escaped by
 * the XML writer; characters XML 1.0 cannot carry (control characters in a file name) become U+FFFD.
 */
final class FeedWriter {

    static final String ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd";
    /** RFC 822 (with a four-digit year, as RSS 2.0 readers expect): {@code Tue, 01 Dec 2026 07:28:00 +0000}. */
    static final DateTimeFormatter RFC_822 =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss Z", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    /**
     * One feed.
     *
     * @param link     the application's page (absolute)
     * @param imageUrl the cover (absolute), or null
     */
    record Channel(String title, String author, String link, String description, String imageUrl,
                   List<Episode> episodes) {
        Channel {
            episodes = List.copyOf(episodes);
        }
    }

    /**
     * One episode: a chapter.
     *
     * @param number    1, 2, ... in the book's order
     * @param guid      stable across fetches (not the URL, which changes when its signature is renewed)
     * @param url       the enclosure's absolute URL
     * @param length    its size in bytes
     * @param type      its MIME type
     * @param published the {@code pubDate}
     * @param duration  the playing time, or null when unknown
     */
    record Episode(int number, String title, String guid, String url, long length, String type, Instant published,
                   Duration duration) {
    }

    private final XMLStreamWriter xml;
    private int depth;

    private FeedWriter(XMLStreamWriter xml) {
        this.xml = xml;
    }

    static void write(Channel channel, OutputStream out) throws XMLStreamException {
        XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(out, "UTF-8");
        try {
            new FeedWriter(xml).channel(channel);
        } finally {
            xml.close();
        }
    }

    private void channel(Channel c) throws XMLStreamException {
        xml.writeStartDocument("UTF-8", "1.0");
        xml.writeCharacters("\n");
        xml.writeStartElement("rss");
        xml.writeAttribute("version", "2.0");
        xml.writeNamespace("itunes", ITUNES);
        depth++;
        start("channel");
        element("title", c.title());
        element("link", c.link());
        element("description", c.description());
        element("generator", "xaccel sample");
        itunes("author", c.author());
        itunes("type", "serial");                             // chapters are listened to in order
        itunes("explicit", "false");
        if (c.imageUrl() != null) {
            indent();
            xml.writeEmptyElement("itunes", "image", ITUNES);
            xml.writeAttribute("href", c.imageUrl());
            start("image");
            element("url", c.imageUrl());
            element("title", c.title());
            element("link", c.link());
            end();
        }
        for (Episode e : c.episodes()) {
            start("item");
            element("title", e.title());
            itunes("episode", Integer.toString(e.number()));
            itunes("episodeType", "full");
            indent();
            xml.writeStartElement("guid");
            xml.writeAttribute("isPermaLink", "false");
            xml.writeCharacters(text(e.guid()));
            xml.writeEndElement();
            element("pubDate", RFC_822.format(e.published()));
            indent();
            xml.writeEmptyElement("enclosure");
            xml.writeAttribute("url", e.url());
            xml.writeAttribute("length", Long.toString(e.length()));
            xml.writeAttribute("type", e.type());
            if (e.duration() != null) {
                itunes("duration", duration(e.duration()));
            }
            end();
        }
        end();
        depth--;
        xml.writeCharacters("\n");
        xml.writeEndElement();
        xml.writeCharacters("\n");
        xml.writeEndDocument();
    }

    /** {@code HH:MM:SS}, rounded to the second. */
    static String duration(Duration d) {
        long s = (d.toMillis() + 500) / 1000;
        return String.format(Locale.ROOT, "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    /** The text with every character XML 1.0 cannot hold replaced by U+FFFD. */
    static String text(String s) {
        StringBuilder sb = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c <= 0xD7FF || c >= 0xE000 && c <= 0xFFFD
                    || Character.isSurrogate(c) && validSurrogate(s, i);
            if (!ok && sb == null) {
                sb = new StringBuilder(s.length()).append(s, 0, i);
            }
            if (sb != null) {
                sb.append(ok ? c : '\uFFFD');
            }
        }
        return sb == null ? s : sb.toString();
    }

    private static boolean validSurrogate(String s, int i) {
        char c = s.charAt(i);
        return Character.isHighSurrogate(c) ? i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))
                : i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
    }

    private void start(String name) throws XMLStreamException {
        indent();
        xml.writeStartElement(name);
        depth++;
    }

    private void end() throws XMLStreamException {
        depth--;
        indent();
        xml.writeEndElement();
    }

    private void element(String name, String value) throws XMLStreamException {
        indent();
        xml.writeStartElement(name);
        xml.writeCharacters(text(value));
        xml.writeEndElement();
    }

    private void itunes(String name, String value) throws XMLStreamException {
        indent();
        xml.writeStartElement("itunes", name, ITUNES);
        xml.writeCharacters(text(value));
        xml.writeEndElement();
    }

    private void indent() throws XMLStreamException {
        xml.writeCharacters("\n" + "  ".repeat(depth));
    }
}
