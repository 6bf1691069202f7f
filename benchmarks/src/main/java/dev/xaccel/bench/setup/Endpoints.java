package dev.xaccel.bench.setup;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.BareAccelServlet;
import dev.xaccel.bench.server.BenchServer;

/**
 * Where each setup serves the data: a base URL ({@code http://127.0.0.1:PORT/prefix}) below which the files have
 * their names, and for setup 7 the file of signed links (paths with query) that replaces {@code base/NAME}.
 */
public final class Endpoints {

    private final Map<Setup, String> base = new EnumMap<>(Setup.class);
    private final int signedPort;
    private final Path signedLinks;
    /** Setup store's presigned queries by file name, and its URL list for wrk ({@link #store}). */
    private Map<String, String> storeQueries = Map.of();
    private Path storeLinks;

    /**
     * @param tomcatPort the plain NIO connector's port
     * @param directPort setup 1's port: the xaccel connector
     */
    public Endpoints(int tomcatPort, int directPort, BenchNginxConf.Ports ports, Path signedLinks) {
        base.put(Setup.TOMCAT, url(directPort, "/stream/files"));
        base.put(Setup.TOMCAT_NIO, url(tomcatPort, "/stream/files"));
        base.put(Setup.PROXIED, url(ports.proxied(), "/stream/files"));
        base.put(Setup.XACCEL, url(ports.xaccel(), "/accel/files"));
        base.put(Setup.STATIC, url(ports.statik(), "/files"));
        base.put(Setup.DEFAULT, url(tomcatPort, "/default"));
        base.put(Setup.CACHED, url(ports.cached(), BenchNginxConf.CACHED_PREFIX.replaceFirst("/$", "")));
        base.put(Setup.SIGNED, url(ports.signed(), BenchServer.SIGNED_PREFIX.replaceFirst("/$", "")));
        base.put(Setup.CONFINED, url(ports.confined(), "/files"));
        base.put(Setup.REMOTE_OFFLOAD, url(ports.remote(), "/remote/files"));
        base.put(Setup.REMOTE_DIRECT, url(tomcatPort, "/remote/files"));
        base.put(Setup.STORE, url(ports.remote(), BenchRemoteConf.STORE_PREFIX));
        base.put(Setup.BARE, url(ports.bare(), BareAccelServlet.CONTEXT + "/files"));
        base.put(Setup.UDS, url(ports.uds(), "/accel/files"));
        base.put(Setup.SENDFILE, url(tomcatPort, "/sendfile/files"));
        base.put(Setup.RECEIPTS, url(ports.receipts(), ReceiptSetup.CONTEXT + "/files"));
        this.signedPort = ports.signed();
        this.signedLinks = signedLinks;
    }

    private static String url(int port, String prefix) {
        return "http://127.0.0.1:" + port + prefix;
    }

    public String base(Setup s) {
        return base.get(s);
    }

    /** The URL of one file of a setup (not for signed links: see {@link #signed(String)}). */
    public String file(Setup s, String name) {
        String url = base(s) + "/" + name;
        return s == Setup.STORE ? url + "?" + storeQueries.get(name) : url;
    }

    /** Setup store's presigned GETs: the query per file name, and the list of small-file URLs for wrk. */
    public void store(Map<String, String> queries, Path links) {
        this.storeQueries = Map.copyOf(queries);
        this.storeLinks = links;
    }

    /** A signed link's full URL from its path and query. */
    public String signed(String pathAndQuery) {
        return url(signedPort, pathAndQuery);
    }

    /** The list of URLs wrk cycles through instead of {@code base/small-NNN.bin}, for the setups that have one. */
    public Optional<Path> urlList(Setup s) {
        return s == Setup.SIGNED ? Optional.of(signedLinks) : s == Setup.STORE ? Optional.ofNullable(storeLinks)
                : Optional.empty();
    }
}
