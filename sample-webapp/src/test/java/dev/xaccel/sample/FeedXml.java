package dev.xaccel.sample;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * A podcast feed read the way a careful client reads it: {@code javax.xml.parsers}, namespace-aware, with DTDs,
 * external entities and XInclude off (a feed is untrusted input), plus small accessors for RSS elements.
 */
public final class FeedXml {

    public static final String ITUNES = "http://www.itunes.com/dtds/podcast-1.0.dtd";

    private FeedXml() {
    }

    /** Parses a feed; a DOCTYPE (and so any entity declaration) is an error. */
    public static Document parse(byte[] xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature("http://xml.org/sax/features/external-general-entities", false);
        f.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setXIncludeAware(false);
        f.setExpandEntityReferences(false);
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        f.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(null);
        return b.parse(new ByteArrayInputStream(xml));
    }

    /** The {@code <channel>} of an RSS 2.0 document (checks the root). */
    public static Element channel(Document rss) {
        Element root = rss.getDocumentElement();
        if (!"rss".equals(root.getLocalName()) || root.getNamespaceURI() != null
                || !"2.0".equals(root.getAttribute("version"))) {
            throw new AssertionError("not RSS 2.0: <" + root.getTagName() + " version=" + root.getAttribute("version")
                    + ">");
        }
        List<Element> channels = children(root, null, "channel");
        if (channels.size() != 1) {
            throw new AssertionError(channels.size() + " <channel> elements");
        }
        return channels.get(0);
    }

    /** The child elements with that namespace (null: none) and local name, in document order. */
    public static List<Element> children(Element parent, String namespace, String name) {
        List<Element> out = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node n = nodes.item(i);
            if (n instanceof Element e && name.equals(e.getLocalName())
                    && (namespace == null ? e.getNamespaceURI() == null : namespace.equals(e.getNamespaceURI()))) {
                out.add(e);
            }
        }
        return out;
    }

    /** The one child element with that namespace and name. */
    public static Element child(Element parent, String namespace, String name) {
        List<Element> found = children(parent, namespace, name);
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " <" + name + "> in <" + parent.getTagName() + ">");
        }
        return found.get(0);
    }

    /** The text of the one child element with no namespace and that name. */
    public static String text(Element parent, String name) {
        return child(parent, null, name).getTextContent();
    }

    /** The text of the one {@code itunes:} child element with that name. */
    public static String itunes(Element parent, String name) {
        return child(parent, ITUNES, name).getTextContent();
    }
}
