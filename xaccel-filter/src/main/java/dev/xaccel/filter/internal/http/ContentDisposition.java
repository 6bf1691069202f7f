package dev.xaccel.filter.internal.http;

import java.text.Normalizer;

import dev.xaccel.filter.Disposition;
import dev.xaccel.filter.internal.util.PercentEncoding;

/**
 * Builds {@code Content-Disposition} values per RFC 6266 with RFC 8187 extended parameters.
 *
 * <p>The file name is first reduced to its last path component ({@code /} and {@code \} both count as
 * separators) and stripped of control characters (C0, DEL, C1) and lone surrogates, so the output never
 * contains CR or LF. A name that is printable ASCII without {@code "}, {@code \} and {@code %} is sent as
 * {@code filename="name"} only. Any other name is sent as an ASCII fallback {@code filename="..."} (accents
 * removed after canonical decomposition, remaining non-ASCII characters and {@code %} replaced by {@code _},
 * {@code "} escaped) followed by {@code filename*=UTF-8''...} with the exact name percent-encoded. A name
 * that is empty, {@code .} or {@code ..} after cleaning is left out.
 */
public final class ContentDisposition {

    private ContentDisposition() {
    }

    /**
     * @param type     the disposition type
     * @param filename the download name, or {@code null} for none
     * @return the header value
     */
    public static String format(Disposition type, String filename) {
        String t = type.token();
        if (filename == null) {
            return t;
        }
        String name = clean(filename);
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            return t;
        }
        StringBuilder sb = new StringBuilder(t.length() + name.length() * 4 + 32);
        sb.append(t).append("; filename=\"");
        if (isPlainAscii(name)) {
            return sb.append(name).append('"').toString();
        }
        appendFallback(sb, name);
        sb.append("\"; filename*=UTF-8''");
        appendExtValue(sb, name);
        return sb.toString();
    }

    /** Last path component, without control characters and lone surrogates. */
    public static String clean(String filename) {
        int cut = Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\'));
        String last = filename.substring(cut + 1);
        StringBuilder sb = new StringBuilder(last.length());
        for (int i = 0; i < last.length(); i++) {
            char c = last.charAt(i);
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                continue;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < last.length() && Character.isLowSurrogate(last.charAt(i + 1))) {
                    sb.append(c).append(last.charAt(++i));
                }
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                continue;
            }
            sb.append(c);
        }
        return sb.toString().strip();
    }

    private static boolean isPlainAscii(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '%') {
                return false;
            }
        }
        return true;
    }

    private static void appendFallback(StringBuilder sb, String name) {
        String decomposed = Normalizer.normalize(name, Normalizer.Form.NFD);
        for (int i = 0; i < decomposed.length(); ) {
            int cp = decomposed.codePointAt(i);
            i += Character.charCount(cp);
            int type = Character.getType(cp);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                    || type == Character.COMBINING_SPACING_MARK) {
                continue;
            }
            if (cp == '"' || cp == '\\') {
                sb.append('\\').append((char) cp);
            } else if (cp >= 0x20 && cp <= 0x7e && cp != '%') {
                sb.append((char) cp);
            } else {
                sb.append('_');
            }
        }
    }

    private static void appendExtValue(StringBuilder sb, String name) {
        sb.append(PercentEncoding.attrChars(name));
    }
}
