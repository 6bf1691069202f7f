package dev.xaccel.bench.setup;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.testsupport.nginx.NginxConfigLint;

/**
 * The server blocks of a rendered benchmark nginx.conf, found by their listen port (cut like the templates' blocks,
 * by {@link BenchNginxConf#block}), and their locations (parsed by {@link NginxConfigLint#locations}).
 */
final class ServerBlocks {

    private static final Pattern SERVER_LINE = Pattern.compile("(?m)^[ \\t]*server[ \\t]*\\{");

    private ServerBlocks() {
    }

    /** The one server block that listens on 127.0.0.1:{@code port}. */
    static String of(String conf, int port) {
        Pattern listen = Pattern.compile("(?m)^\\s*listen\\s+127\\.0\\.0\\.1:" + port + "\\s*;");
        List<String> found = new ArrayList<>();
        Matcher m = SERVER_LINE.matcher(conf);
        while (m.find()) {
            String block = BenchNginxConf.block(conf.substring(m.start()), BenchNginxConf.CACHED_SERVER, "conf");
            if (listen.matcher(block).find()) {
                found.add(block);
            }
        }
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " server blocks listen on port " + port + ":\n" + conf);
        }
        return found.get(0);
    }

    /** The locations of that server block, nested ones included. */
    static List<NginxConfigLint.Location> locations(String conf, int port) {
        return NginxConfigLint.locations(of(conf, port));
    }

    /** Those that serve files (an {@code alias} or {@code root}). */
    static List<NginxConfigLint.Location> fileLocations(String conf, int port) {
        Pattern directory = Pattern.compile("(?m)^\\s*(alias|root)\\s");
        return locations(conf, port).stream().filter(l -> directory.matcher(l.body()).find()).toList();
    }

    /** The directives of a location's body: one per line, blanks collapsed, in order. */
    static List<String> directives(NginxConfigLint.Location l) {
        return l.body().lines().map(String::strip).filter(s -> !s.isEmpty()).map(s -> s.replaceAll("\\s+", " "))
                .toList();
    }
}
