package dev.xaccel.testsupport.frontend;

/**
 * The text of a front end's config as its lint reads it: {@code #} comments removed (outside double quotes; nginx,
 * Apache httpd, lighttpd and Caddy all comment with {@code #}), and each {@code ${NAME}} placeholder (upper case)
 * standing for the literal value it will be, written {@code @NAME@}.
 */
public final class ConfigText {

    private ConfigText() {
    }

    /** Comments removed, placeholders as {@code @NAME@}. */
    public static String of(String config) {
        return withoutComments(config).replaceAll("\\$\\{([A-Z][A-Z0-9_]*)}", "@$1@");
    }

    /** The config without {@code #} comments (outside quotes). */
    public static String withoutComments(String config) {
        StringBuilder sb = new StringBuilder(config.length());
        for (String line : config.split("\n", -1)) {
            boolean quoted = false;
            int cut = line.length();
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '"') {
                    quoted = !quoted;
                } else if (c == '#' && !quoted) {
                    cut = i;
                    break;
                }
            }
            sb.append(line, 0, cut).append('\n');
        }
        return sb.toString();
    }

    /**
     * The body of the first block that {@code opening} (a regular expression ending at the block's opening
     * character) starts, up to its matching {@code close}; {@code null} when there is none.
     */
    public static String block(String text, String opening, char open, char close) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(opening).matcher(text);
        if (!m.find()) {
            return null;
        }
        int start = m.end() - 1;
        int depth = 0;
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == open) {
                depth++;
            } else if (c == close && --depth == 0) {
                return text.substring(start + 1, i);
            }
        }
        return text.substring(start + 1);
    }
}
