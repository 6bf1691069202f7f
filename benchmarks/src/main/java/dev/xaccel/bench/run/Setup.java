package dev.xaccel.bench.run;

import java.util.Optional;

/** The setups compared side by side, in the order of the tables; their ids are the command line's and the .tsv's. */
public enum Setup {
    /**
     * (1) Tomcat serves the file: the filter with offload=never, on the xaccel connector
     * ({@code AcceptFilterHttp11NioProtocol}, {@code acceptFilter=none}), which can send the file the filter opened.
     */
    TOMCAT("tomcat", false, "(1) Tomcat serves it (filter, offload=never, xaccel connector)"),
    /** (2) nginx proxy_pass in front of (1), default buffering. */
    PROXIED("proxied", false, "(2) nginx proxy_pass → (1), default buffering"),
    /** (3) nginx in front of the filter with offload=auto: X-Accel-Redirect. */
    XACCEL("xaccel", false, "(3) xaccel: nginx + filter, X-Accel-Redirect"),
    /** (4) nginx static, no backend, no auth. */
    STATIC("static", false, "(4) nginx static, no auth"),
    /** (5) Tomcat's DefaultServlet behind the token check. */
    DEFAULT("default", false, "(5) Tomcat DefaultServlet (sendfile)"),
    /** (6) cached authorization decisions, blocks of docs/nginx/xaccel-cached-auth.conf.template. */
    CACHED("cached", true, "(6) cached decisions (auth_request + cache)"),
    /** (7) signed links, the secure_link location of docs/nginx/xaccel-signed-links.conf.template. */
    SIGNED("signed", true, "(7) signed links (nginx secure_link)"),
    /** (8) nginx static confined at open time ({@code disable_symlinks on from=<data root>}), no auth. */
    CONFINED("confined", false, "(8) nginx static + disable_symlinks, no auth"),
    /**
     * (9) an object of an S3 store (s3proxy): nginx → the application (auth, a GET presigned for 10 s) →
     * {@code X-Accel-Redirect: /_xaccel/remote/…} → nginx fetches it from the store (docs/nginx/xaccel-remote).
     */
    REMOTE_OFFLOAD("remote-offload", false, "(9) S3 object: nginx + filter, X-Accel-Redirect to the store"),
    /** (10) the same object streamed by the filter itself (a client talking to Tomcat: no front end). */
    REMOTE_DIRECT("remote-direct", false, "(10) S3 object streamed by the filter (Tomcat direct)"),
    /** (11) the limit of (9): a presigned GET through the same nginx location, without the application. */
    STORE("store", false, "(11) S3 object: presigned GET through nginx, no app"),
    /**
     * (12) nginx in front of a bare servlet answering a fixed X-Accel-Redirect behind the same auth filter as (3):
     * the floor of the round trip, so that xaccel / bare is XAccelFilter's cost alone.
     */
    BARE("bare", true, "(12) nginx + bare X-Accel servlet, same auth as (3)"),
    /** (13) (3) with nginx reaching Tomcat over a Unix domain socket instead of loopback TCP. */
    UDS("uds", true, "(13) xaccel over a Unix domain socket"),
    /**
     * (14) (1) with {@code sendfile=true}: Tomcat's sendfile, which opens the file again by name after the filter's
     * check, as DefaultServlet's does: the filter at DefaultServlet's guarantee.
     */
    SENDFILE("sendfile", false, "(14) (1) with sendfile=true (Tomcat re-opens by name)"),
    /** (15) (1) on Tomcat's stock NIO connector: the filter serving directly without the xaccel connector. */
    TOMCAT_NIO("tomcat-nio", false, "(15) (1) on stock NIO (without the xaccel connector)"),
    /**
     * (16) (3) with delivery receipts on: the filter's {@code receipts=<file>} (the run's receipt log) and
     * docs/nginx/xaccel-receipts-file.conf.template included in the internal location, so that nginx logs one
     * receipt line per offloaded request, a buffer at a time, to the file the filter reads (issue 32).
     */
    RECEIPTS("receipts", true, "(16) xaccel with delivery receipts (receipts=<nginx's buffered log file>)");

    /**
     * The hop's setups: their requests reach a BenchServer JVM of their own ({@code TomcatServer.Role.HOP}), which
     * no other setup's request reaches.
     */
    public static final java.util.Set<Setup> HOP = java.util.EnumSet.of(XACCEL, BARE, UDS, RECEIPTS);
    /** The setups that need the S3 store. */
    public static final java.util.Set<Setup> REMOTE = java.util.EnumSet.of(REMOTE_OFFLOAD, REMOTE_DIRECT, STORE);

    private final String id;
    private final boolean smallOnly;
    private final String label;

    Setup(String id, boolean smallOnly, String label) {
        this.id = id;
        this.smallOnly = smallOnly;
        this.label = label;
    }

    public String id() {
        return id;
    }

    /** Its row's name in the report's tables. */
    public String label() {
        return label;
    }

    /** Measured in the small-file workload only (the setups of issues 6 and 15). */
    public boolean smallOnly() {
        return smallOnly;
    }

    static Optional<Setup> byId(String id) {
        for (Setup s : values()) {
            if (s.id.equals(id)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
