package dev.xaccel.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The one nginx of setups 2, 3, 4, 6, 7 and 8: configuration from {@link BenchNginxConf}, checked with
 * {@code nginx -t}, started in the foreground ({@code daemon off}) on six free loopback ports, ready when every
 * server answers. When another process takes a port between the choice and nginx's bind(), it retries with others.
 */
final class NginxServer {

    private static final int ATTEMPTS = 3;

    /** Where and with what. */
    record Launch(String nginx, Path templates, Path dir, Path work, int tomcatPort, Path data, String linkSecret) {
    }

    private final Process process;
    private final BenchNginxConf.Ports ports;
    private final Path conf;
    private final String version;

    private NginxServer(Process process, BenchNginxConf.Ports ports, Path conf, String version) {
        this.process = process;
        this.ports = ports;
        this.conf = conf;
        this.version = version;
    }

    static NginxServer start(Processes processes, Http http, Launch l) {
        try {
            Files.createDirectories(l.dir().resolve("tmp"));
            String version = fullVersion(processes, l.nginx());
            FreePorts free = new FreePorts();
            Path conf = l.dir().resolve("nginx.conf");
            Path out = l.work().resolve("nginx.out");
            for (int attempt = 1; ; attempt++) {
                BenchNginxConf.Ports ports = new BenchNginxConf.Ports(free.next(), free.next(), free.next(),
                        free.next(), free.next(), free.next());
                Files.writeString(conf, render(l, shortVersion(version), ports), StandardCharsets.UTF_8);
                check(processes, l, conf);
                Log.info("starting nginx on 127.0.0.1:" + ports.proxied() + " (proxied), :" + ports.xaccel()
                        + " (xaccel), :" + ports.statik() + " (static), :" + ports.cached() + " (cached), :"
                        + ports.signed() + " (signed), :" + ports.confined() + " (confined)");
                Process p = processes.start(List.of(l.nginx(), "-p", l.dir().toString(), "-e",
                        l.dir().resolve("error.log").toString(), "-c", conf.toString()), Map.of(), out);
                NginxServer n = new NginxServer(p, ports, conf, version);
                if (n.awaitReady(http)) {
                    return n;
                }
                processes.await(p);
                String printed = Files.readString(out, StandardCharsets.UTF_8);
                if (printed.contains("Address already in use") && attempt < ATTEMPTS) {
                    Log.info("a port was taken meanwhile; retrying with other ports");
                    continue;
                }
                Log.tail(l.dir().resolve("error.log"), 40);
                Log.raw(printed);
                throw new BenchFailure("nginx did not start");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String render(Launch l, String version, BenchNginxConf.Ports ports) throws IOException {
        try {
            return BenchNginxConf.render(l.templates(), new BenchNginxConf.Params(version, Machine.cores(),
                    userLine(l.dir()), l.dir(), l.tomcatPort(), l.data(), l.linkSecret(), ports));
        } catch (IllegalStateException | UncheckedIOException e) {
            throw new BenchFailure(e.getMessage(), e);
        }
    }

    /** Up to 10 s until each of the six servers answers; false when nginx ended. */
    private boolean awaitReady(Http http) {
        List<String> urls = List.of(base(ports.statik()), base(ports.xaccel()), base(ports.proxied()),
                base(ports.cached()), base(ports.signed()), base(ports.confined()));
        for (int i = 0; i < 100 && process.isAlive(); i++) {
            if (urls.stream().allMatch(u -> http.answers(u + "/"))) {
                return true;
            }
            Sleep.millis(100);
        }
        return process.isAlive();
    }

    private static void check(Processes processes, Launch l, Path conf) {
        Processes.Result t = processes.run(List.of(l.nginx(), "-t", "-q", "-p", l.dir().toString(), "-e",
                l.dir().resolve("error.log").toString(), "-c", conf.toString()));
        if (!t.ok()) {
            Log.raw(t.output());
            throw new BenchFailure("nginx -t rejected " + conf);
        }
    }

    /** {@code 1.22.1} from {@code nginx version: nginx/1.22.1}. */
    private static String shortVersion(String full) {
        return full.substring(full.indexOf('/') + 1).trim();
    }

    /** What {@code nginx -v} prints. */
    private static String fullVersion(Processes processes, String nginx) {
        return processes.run(List.of(nginx, "-v")).output().trim();
    }

    /**
     * Started as root, nginx runs its workers as nobody: they must reach the data and nginx's own directories. When
     * a directory above nginx's is not searchable by others, the workers run as the current user instead.
     */
    private static String userLine(Path dir) throws IOException {
        Path self = Path.of("/proc/self");
        if (!Files.exists(self) || !"root".equals(Files.getOwner(self).getName())) {
            return "";
        }
        for (Path d = dir.toAbsolutePath(); d != null && d.getParent() != null; d = d.getParent()) {
            if (!Files.getPosixFilePermissions(d).contains(PosixFilePermission.OTHERS_EXECUTE)) {
                PosixFileAttributes a = Files.readAttributes(self, PosixFileAttributes.class);
                return "user " + a.owner().getName() + " " + a.group().getName() + ";    # " + d
                        + " is not searchable by others";
            }
        }
        return "";
    }

    private static String base(int port) {
        return "http://127.0.0.1:" + port;
    }

    BenchNginxConf.Ports ports() {
        return ports;
    }

    Path conf() {
        return conf;
    }

    /** What {@code nginx -v} printed, e.g. {@code nginx version: nginx/1.22.1}. */
    String fullVersion() {
        return version;
    }

    long pid() {
        return process.pid();
    }

    /** The master and its workers, as of now. */
    List<Long> pids() {
        List<Long> l = new ArrayList<>();
        l.add(process.pid());
        process.toHandle().children().forEach(c -> l.add(c.pid()));
        return l;
    }
}
