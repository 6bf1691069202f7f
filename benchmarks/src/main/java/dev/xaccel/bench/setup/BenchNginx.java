package dev.xaccel.bench.setup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.system.CpuPinning;
import dev.xaccel.bench.system.Machine;
import dev.xaccel.bench.system.Processes;
import dev.xaccel.testsupport.nginx.NginxServer;

/**
 * The one nginx of every setup but the direct ones: the project's shared {@link NginxServer} (in the foreground, free
 * loopback ports for the six servers with a retry when one is taken meanwhile, ready when every port accepts, who
 * the workers run as by {@code NginxUser}) with {@link BenchNginxConf#template}'s configuration. Its PID is in the
 * run's {@link Processes}, so that it is stopped with everything else, also on failure or Ctrl-C.
 */
public final class BenchNginx {

    /**
     * Where and with what: the shipped templates, nginx's own directory, the two BenchServers (the hop's and the
     * others'), the data, the secret, the S3 store's port (0: none), the file of setup 16's receipt lines, and the
     * servers' CPUs (master and workers pinned to them once started; {@code worker_processes auto} counts the
     * machine's cores, as in every earlier run).
     */
    public record Launch(Path templates, Path dir, int tomcatPort, int hopPort, Path data, String linkSecret,
            int storePort, Path receiptsFile, CpuPinning pinning) {
    }

    private final NginxServer nginx;
    private final BenchNginxConf.Ports ports;
    private final String version;

    private BenchNginx(NginxServer nginx, String version) {
        this.nginx = nginx;
        this.ports = BenchNginxConf.Ports.of(nginx::port);
        this.version = version;
    }

    public static BenchNginx start(Processes processes, Launch l) {
        String version = processes.run(List.of(NginxServer.findBinary().toString(), "-v")).output().trim();
        String template;
        try {
            template = BenchNginxConf.template(l.templates(), new BenchNginxConf.Params(shortVersion(version),
                    Machine.cores(), l.dir().toAbsolutePath(), l.tomcatPort(), l.hopPort(), l.data(), l.linkSecret(),
                    l.storePort()));
            ReceiptSetup.writeInclude(l.templates(), l.dir(), l.receiptsFile());
        } catch (IllegalStateException | IllegalArgumentException | UncheckedIOException e) {
            throw new BenchFailure(e.getMessage(), e);
        }
        NginxServer nginx;
        try {
            nginx = NginxServer.builder(l.dir())
                    .template(template)
                    .ports(BenchNginxConf.PORT_PLACEHOLDERS.toArray(String[]::new))
                    .workersRead(l.data())
                    .start();
        } catch (IOException e) {
            throw new BenchFailure("nginx did not start: " + e.getMessage(), e);
        }
        processes.adopt(nginx.pid());
        BenchNginx n = new BenchNginx(nginx, version);
        l.pinning().pinServers(processes, n.pids());
        BenchNginxConf.Ports p = n.ports();
        Log.info("nginx on 127.0.0.1:" + p.proxied() + " (proxied), :" + p.xaccel() + " (xaccel), :" + p.statik()
                + " (static), :" + p.cached() + " (cached), :" + p.signed() + " (signed), :" + p.confined()
                + " (confined), :" + p.bare() + " (bare), :" + p.uds() + " (uds, upstream "
                + HopSetups.socketOfNginxPrefix(l.dir()) + "), :" + p.receipts() + " (receipts, lines to "
                + l.receiptsFile() + "), :" + p.remote() + " (remote setups)");
        return n;
    }

    /** {@code 1.22.1} from {@code nginx version: nginx/1.22.1}. */
    private static String shortVersion(String full) {
        return full.substring(full.indexOf('/') + 1).trim();
    }

    public BenchNginxConf.Ports ports() {
        return ports;
    }

    /** The configuration nginx runs, {@code <dir>/conf/nginx.conf}. */
    public Path conf() {
        return nginx.conf();
    }

    /** What {@code nginx -v} printed, e.g. {@code nginx version: nginx/1.22.1}. */
    public String fullVersion() {
        return version;
    }

    long pid() {
        return nginx.pid();
    }

    /** The master and its workers, as of now. */
    public List<Long> pids() {
        List<Long> l = new ArrayList<>();
        l.add(nginx.pid());
        ProcessHandle.of(nginx.pid()).ifPresent(h -> h.children().forEach(c -> l.add(c.pid())));
        return l;
    }
}
