package dev.xaccel.bench;

import java.util.Optional;

/** The setups compared side by side, in the order of the tables; their ids are the command line's and the .tsv's. */
enum Setup {
    /** (1) Tomcat serves the file: the filter with offload=never. */
    TOMCAT("tomcat", false),
    /** (2) nginx proxy_pass in front of (1), default buffering. */
    PROXIED("proxied", false),
    /** (3) nginx in front of the filter with offload=auto: X-Accel-Redirect. */
    XACCEL("xaccel", false),
    /** (4) nginx static, no backend, no auth. */
    STATIC("static", false),
    /** (5) Tomcat's DefaultServlet behind the token check. */
    DEFAULT("default", false),
    /** (6) cached authorization decisions, blocks of docs/nginx/xaccel-cached-auth.conf.template. */
    CACHED("cached", true),
    /** (7) signed links, the secure_link location of docs/nginx/xaccel-signed-links.conf.template. */
    SIGNED("signed", true),
    /** (8) nginx static confined at open time ({@code disable_symlinks on from=<data root>}), no auth. */
    CONFINED("confined", false),
    /** (9) nginx in front of a bare servlet answering a fixed X-Accel-Redirect: the floor of the round trip. */
    BARE("bare", true),
    /** (10) (3) with nginx reaching Tomcat over a Unix domain socket instead of loopback TCP. */
    UDS("uds", true);

    private final String id;
    private final boolean smallOnly;

    Setup(String id, boolean smallOnly) {
        this.id = id;
        this.smallOnly = smallOnly;
    }

    String id() {
        return id;
    }

    /** Measured in the small-file workload only (the setups of issues 6 and 15). */
    boolean smallOnly() {
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
