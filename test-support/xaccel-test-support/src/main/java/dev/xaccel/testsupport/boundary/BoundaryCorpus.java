package dev.xaccel.testsupport.boundary;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Request targets that try to reach a protected file from somewhere else, for a differential test of the trust
 * boundary between a front end and the application: the front end and the application each normalize a target
 * in their own way (path parameters, percent-decoding, dot segments, backslashes, case), and a target that one
 * reads as an allowed URL and the other as a protected file is a hole.
 *
 * <p>For every goal (the URL path of a protected file, or of an internal location) the corpus holds the goal
 * itself in many spellings: path parameters on every segment, encoded and double-encoded separators and dots,
 * backslashes, overlong UTF-8, mixed case, repeated slashes, {@code ?}/{@code #} and their encodings appended. For
 * every start (the URL of each public and protected location of a config, optionally with a query such as a
 * signed link's) and goal, it holds the start followed by enough {@code ..} segments to climb back to the root and
 * then the goal, in the same spellings, with and without a path parameter ({@code ;}) before the climb; the
 * start's query is kept. Targets are sent verbatim (raw request-target bytes, never re-encoded by a client).
 */
public final class BoundaryCorpus {

    /** Spellings of '/' between two segments. */
    static final List<String> SEPARATORS = List.of("/", "%2F", "%2f", "%252F", "%5C", "%5c", "\\", "%C0%AF",
            "%E0%80%AF", "%25%32%46", "//", "/./");
    /** Spellings of '.' inside a ".." segment. */
    static final List<String> DOTS = List.of(".", "%2E", "%2e", "%252E", "%C0%AE", "%E0%80%AE", "%25%32%45");
    /** Appended to a target. */
    static final List<String> SUFFIXES = List.of("", "?", "?x=1", "%3F", "%3Fx", "#", "#x", "%23", "%23x", ";",
            ";x", "%3B", "%3Bx", "%00", "%20", ".", "/", "%2F", "%0A", "%0D%0A", "~", "::$DATA");

    private BoundaryCorpus() {
    }

    /**
     * @param starts URLs of the config's locations, raw (percent-encoded) paths with an optional query
     * @param goals  URL paths of protected files or internal locations, raw (percent-encoded), starting with '/'
     * @return distinct request targets, in a stable order
     */
    public static List<String> targets(List<String> starts, List<String> goals) {
        Set<String> out = new LinkedHashSet<>();
        for (String goal : goals) {
            spellings(goal, out);
        }
        for (String start : starts) {
            for (String goal : goals) {
                climbs(start, goal, out);
            }
        }
        return new ArrayList<>(out);
    }

    /** The goal itself, spelled in every way. */
    static void spellings(String goal, Set<String> out) {
        List<String> segments = segments(goal);
        for (String suffix : SUFFIXES) {
            out.add(goal + suffix);
        }
        for (String sep : SEPARATORS) {
            out.add("/" + String.join(sep, segments));
            out.add(sep + String.join(sep, segments));
        }
        out.add(goal.toUpperCase(Locale.ROOT));
        out.add("/" + capitalize(segments.get(0)) + rest(segments, 1, "/"));
        out.add("/" + String.join(";x/", segments));
        out.add("/" + String.join(";x/", segments) + ";x");
        out.add("/" + segments.get(0) + ";jsessionid=0" + rest(segments, 1, "/"));
        out.add("/" + segments.get(0) + "/x/.." + rest(segments, 1, "/"));
        out.add("/" + segments.get(0) + "/x/%2E%2E" + rest(segments, 1, "/"));
        out.add("/" + segments.get(0) + "/x%2F..%2F" + String.join("/", segments.subList(1, segments.size())));
        out.add("/" + segments.get(0) + "/./" + String.join("/", segments.subList(1, segments.size())));
        out.add("/" + segments.get(0) + "/%2E/" + String.join("/", segments.subList(1, segments.size())));
        out.add("http://localhost" + goal);
        out.add("//localhost" + goal);
        out.add(goal.replace("%20", "+"));
        out.add(goal.replace("%", "%25"));
    }

    /** From {@code start}, climb back to the root with ".." and continue to {@code goal}. */
    static void climbs(String start, String goal, Set<String> out) {
        int q = start.indexOf('?');
        String path = q < 0 ? start : start.substring(0, q);
        String query = q < 0 ? "" : start.substring(q);
        int depth = Math.max(1, segments(path).size());
        String goalRelative = goal.substring(1);
        List<String> goalSegments = segments(goal);
        for (String sep : SEPARATORS) {
            String ups = (".." + sep).repeat(depth);
            String joined = String.join(sep, goalSegments);
            add(out, path + ";" + sep + ups + joined, query);
            add(out, path + sep + ups + joined, query);
            add(out, path + ";" + sep + ups + goalRelative, query);
            add(out, path + "/" + ups + goalRelative, query);
        }
        for (String dot : DOTS) {
            String up = dot + dot;
            for (String sep : List.of("/", "%2F", "%5C")) {
                String ups = (up + sep).repeat(depth);
                add(out, path + ";" + sep + ups + goalRelative, query);
                add(out, path + sep + ups + goalRelative, query);
            }
        }
        add(out, path + ";" + goal, query);
        add(out, path + "%3B" + goal, query);
        add(out, path + "?" + goal, "");
        add(out, path + "#" + goal, "");
        add(out, path + "%23/.." + goal, query);
        add(out, path + "%3F/.." + goal, query);
    }

    private static void add(Set<String> out, String path, String query) {
        out.add(path + query);
    }

    static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        return segments;
    }

    private static String rest(List<String> segments, int from, String sep) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < segments.size(); i++) {
            sb.append(sep).append(segments.get(i));
        }
        return sb.toString();
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
