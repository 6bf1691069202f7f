package dev.xaccel.sample.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.xaccel.sample.Library;
import dev.xaccel.testsupport.nginx.NginxConfigLint;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The demo's nginx config keeps the structural rules of the boundary ({@link NginxConfigLint}): in particular no
 * location serves a file chosen by nginx's own reading of the request (the /library/ cover location once served
 * {@code alias LIBRARY/$capture} after Tomcat had allowed {@code $request_uri}, which Tomcat reads differently).
 * The behaviour through the running config is SampleBoundaryIT's.
 */
class DemoNginxConfTest {

    @Test
    void keepsTheBoundaryRules() throws Exception {
        String conf = Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
        assertEquals(List.of(), NginxConfigLint.problems(conf));
    }

    static String conf() throws Exception {
        return Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
    }

    static NginxConfigLint.Location location(String match) throws Exception {
        return NginxConfigLint.locations(conf()).stream().filter(l -> l.match().equals(match)).findFirst()
                .orElseThrow(() -> new AssertionError("no location " + match));
    }

    /** The regex entries (value 1) of {@code map $uri $name { ... }}, as Java patterns (the same syntax here). */
    static List<Pattern> mapRegexes(String name) throws Exception {
        Matcher block = Pattern.compile("(?s)map \\$uri \\$" + name + " \\{(.*?)\\}").matcher(conf());
        assertTrue(block.find(), "no map $uri $" + name);
        List<Pattern> out = new ArrayList<>();
        Matcher entry = Pattern.compile("\"(~\\*?)(\\^[^\"]*)\"\\s+1;").matcher(block.group(1));
        while (entry.find()) {
            out.add(Pattern.compile(entry.group(2), entry.group(1).equals("~*") ? Pattern.CASE_INSENSITIVE : 0));
        }
        assertFalse(out.isEmpty(), name);
        return out;
    }

    static boolean admits(List<Pattern> regexes, String uri) {
        return regexes.stream().anyMatch(p -> p.matcher(uri).find());
    }

    /** The signed-link location for images: cover images in Author/Title/, and exactly Author/author.jpg. */
    @Test
    void signedImageLinksOpenCoversAndAuthorPicturesOnly() throws Exception {
        assertTrue(location("^~ /s/library/").body().contains("if ($xaccel_signed_image != 1)"));
        List<Pattern> images = mapRegexes("xaccel_signed_image");
        for (String ok : List.of("/s/library/A/T/cover.png", "/s/library/A/T/Couverture été.JPG",
                "/s/library/Ada Lovelace/author.jpg")) {
            assertTrue(admits(images, ok), ok);
        }
        for (String no : List.of("/s/library/A/T/01.wav", "/s/library/A/Author.jpg", "/s/library/A/author.JPG",
                "/s/library/A/author.png", "/s/library/A/.author.jpg", "/s/library/A/xauthor.jpg",
                "/s/library/author.jpg", "/s/library/A/author.jpg/x", "/s/library/A/T/.hidden.png",
                "/s/library/A/T/U/cover.png", "/s/library/A/cover.png")) {
            assertFalse(admits(images, no), no);
        }
    }

    /**
     * The feeds' enclosure location: signed, only the library's audio extensions at Author/Title/, and the same
     * MIME types as web.xml's mime-mappings (which the feed's enclosures declare).
     */
    @Test
    void signedEnclosureLinksOpenAudioOnlyWithTheAppsTypes() throws Exception {
        NginxConfigLint.Location f = location("^~ /f/library/");
        assertTrue(f.body().contains("if ($xaccel_signed_audio != 1)"), f.body());
        assertTrue(f.body().contains("secure_link_md5  \"$secure_link_expires$uri ${LINK_SECRET}\";"), f.body());
        List<Pattern> audio = mapRegexes("xaccel_signed_audio");
        for (String ext : Library.AUDIO) {
            assertTrue(admits(audio, "/f/library/A/T/01 x." + ext), ext);
            assertTrue(admits(audio, "/f/library/A/T/01 x." + ext.toUpperCase(java.util.Locale.ROOT)), ext);
        }
        for (String no : List.of("/f/library/A/T/cover.png", "/f/library/A/T/c.jpg", "/f/library/A/author.jpg",
                "/f/library/A/01.wav", "/f/library/A/T/.hidden.wav", "/f/library/A/T/U/01.wav",
                "/f/library/A/T/notes.txt", "/f/library/A/T/01.wav.png", "/s/library/A/T/01.wav")) {
            assertFalse(admits(audio, no), no);
        }
        Matcher types = Pattern.compile("(?s)types\\s*\\{(.*?)\\}").matcher(f.body());
        assertTrue(types.find(), f.body());
        Map<String, String> nginx = new TreeMap<>();
        for (String line : types.group(1).trim().split(";")) {
            String[] words = line.trim().split("\\s+");
            for (int i = 1; i < words.length; i++) {
                nginx.put(words[i], words[0]);
            }
        }
        assertEquals(new TreeSet<>(Library.AUDIO), nginx.keySet());
        Map<String, String> webXml = webXmlMimeMappings();
        for (Map.Entry<String, String> e : nginx.entrySet()) {
            assertEquals(webXml.get(e.getKey()), e.getValue(), "nginx and web.xml disagree on ." + e.getKey());
        }
    }

    static Map<String, String> webXmlMimeMappings() throws Exception {
        NodeList list = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(Path.of("src/main/webapp/WEB-INF/web.xml").toFile()).getElementsByTagName("mime-mapping");
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < list.getLength(); i++) {
            Element m = (Element) list.item(i);
            out.put(m.getElementsByTagName("extension").item(0).getTextContent().trim(),
                    m.getElementsByTagName("mime-type").item(0).getTextContent().trim());
        }
        return out;
    }

    /** Query strings carry credentials (feed tokens, signatures): no log format may record them. */
    @Test
    void theAccessLogNeverRecordsAQueryString() throws Exception {
        String text = conf();
        Matcher formats = Pattern.compile("(?s)log_format\\s+(\\w+)\\s+(.*?);").matcher(text);
        int n = 0;
        while (formats.find()) {
            n++;
            String format = formats.group(2);
            if ("xaccel_signed".equals(formats.group(1))) {
                // a signed link's receipt line: the link's md5 and expires (the filter checks the signature with
                // its secret), and only to the filter's loopback port, never to a file
                format = format.replace("$arg_md5 $arg_expires ", "");
                Matcher uses = Pattern.compile("access_log\\s+(\\S+)\\s+xaccel_signed\\b").matcher(text);
                int used = 0;
                while (uses.find()) {
                    used++;
                    assertTrue(uses.group(1).startsWith("syslog:server=127.0.0.1:"), uses.group());
                }
                assertEquals(2, used, "the signed locations only: covers and enclosures");
            }
            for (String variable : List.of("$request ", "$request\"", "$request'", "$request_uri", "$args",
                    "$query_string", "$arg_", "$is_args")) {
                assertFalse(format.contains(variable), "log_format records " + variable + ": " + format);
            }
            // the receipt lines name no request at all: the identifier, numbers and the client's Range
            assertTrue(format.contains("$xaccel_request_path") || formats.group(1).startsWith("xaccel_receipt")
                    || "xaccel_signed".equals(formats.group(1)), format);
        }
        assertEquals(3, n, "the access log's format and the receipts' two");
        Matcher path = Pattern.compile("\"(~\\^\\(\\?<(\\w+)>\\[\\^\\?\\]\\*\\))\"\\s+\\$(\\w+);").matcher(text);
        assertTrue(path.find(), "map $request_uri $xaccel_request_path: the path up to the first ?");
        assertEquals(path.group(2), path.group(3));
    }

    /** The feeds: proxied to Tomcat exactly like `location /`, with an error log that never quotes the token. */
    @Test
    void theFeedLocationProxiesLikeTheAppAndKeepsItsTokenOutOfTheErrorLog() throws Exception {
        NginxConfigLint.Location feeds = location("^~ /feeds/");
        NginxConfigLint.Location app = location("/");
        assertEquals(app.body().lines().map(String::trim).filter(l -> l.startsWith("proxy_")).toList(),
                feeds.body().lines().map(String::trim).filter(l -> l.startsWith("proxy_")).toList());
        assertTrue(feeds.body().contains("error_log           logs/error.log crit;"), feeds.body());
    }

    @Test
    void theCachedCoverLocationServesTheFileTomcatNamed() throws Exception {
        String conf = Files.readString(ConnectorTuningTest.NGINX, StandardCharsets.UTF_8);
        NginxConfigLint.Location cover = NginxConfigLint.locations(conf).stream()
                .filter(l -> l.match().startsWith("~* \"^/library/")).findFirst().orElseThrow();
        assertTrue(cover.body().contains("try_files         /.xaccel-never-a-file  /_xaccel_cached$xaccel_raw;"),
                cover.body());
        assertTrue(cover.body().contains("$upstream_http_x_accel_raw_path"), cover.body());
        NginxConfigLint.Location target = NginxConfigLint.locations(conf).stream()
                .filter(l -> l.match().equals("^~ /_xaccel_cached/_xaccel/library/")).findFirst().orElseThrow();
        assertTrue(target.body().contains("if ($uri != \"/_xaccel_cached$xaccel_raw\")"), target.body());
    }
}
