package dev.xaccel.bench.check;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.SmallCase;
import dev.xaccel.bench.run.SmallPlan;
import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.setup.TomcatServer;

/**
 * Before anything is measured: every setup serves the right bytes (of every file set it is measured with: the deep
 * sets' files too), setup 1 runs on the xaccel connector, the auth filter is enforced, the filter
 * offloads where it should and only there, and the internal location is not reachable; then the checks of
 * setups 6 and 7 when they are measured. Any wrong answer is a {@link BenchFailure}.
 */
public final class SetupChecks {

    static final String SAMPLE = "small-007.bin";
    /** The file of each deep set whose bytes are compared. */
    static final int SAMPLE_INDEX = 7;

    private SetupChecks() {
    }

    public static void verify(BenchRig rig) {
        for (Setup s : rig.options().setups()) {
            servesTheFile(rig, s);
        }
        Set<String> checked = new HashSet<>();
        for (SmallCase k : SmallPlan.cases(rig.options())) {
            for (Setup s : k.setups()) {
                if (k.files().deep() && checked.add(k.files().id() + " " + s.id())) {
                    servesTheFile(rig, s, k.files().path(SAMPLE_INDEX));
                }
            }
        }
        Http http = rig.http();
        if (rig.options().has(Setup.TOMCAT)) {
            // setup 1's port is the connector BenchServer calls xaccel, of the xaccel protocol
            BenchStats.Snapshot stats = rig.stats().read();
            String port = stats.get("xaccel", "port").orElse("none");
            String protocol = stats.get("xaccel", "protocol").orElse("none");
            if (!rig.endpoints().base(Setup.TOMCAT).contains(":" + port + "/")
                    || !protocol.equals(TomcatServer.acceptFilterProtocol())) {
                throw new BenchFailure("setup tomcat is not on the xaccel connector (" + rig.endpoints().base(
                        Setup.TOMCAT) + "; xaccel connector: port " + port + ", " + protocol + ")");
            }
        }
        for (Setup direct : List.of(Setup.TOMCAT, Setup.TOMCAT_NIO)) {
            int status = http.status(rig.endpoints().file(direct, SAMPLE));
            if (status != 401) {
                throw new BenchFailure("setup " + direct.id() + " let a request without token through (" + status
                        + ")");
            }
        }
        int code = http.status(rig.tomcat().url("/stream/files/" + SAMPLE));
        if (code != 401) {
            throw new BenchFailure("the auth filter let a request without token through (" + code + ")");
        }
        Http.Answer offloaded = http.get(rig.tomcat().url("/accel/files/" + SAMPLE), "Authorization",
                "Bearer " + rig.token(), "X-Sendfile-Type", "X-Accel-Redirect");
        if (!offloaded.header("X-Accel-Redirect").orElse("").startsWith(BenchServer.INTERNAL_PREFIX + SAMPLE)) {
            Log.raw(headers(offloaded));
            throw new BenchFailure("the filter did not offload (no X-Accel-Redirect from /accel)");
        }
        if (offloaded.body().length != 0) {
            throw new BenchFailure("the offloaded response has a body");
        }
        Http.Answer never = http.get(rig.tomcat().url("/stream/files/" + SAMPLE), "Authorization",
                "Bearer " + rig.token(), "X-Sendfile-Type", "X-Accel-Redirect");
        if (never.header("X-Accel-Redirect").isPresent()) {
            throw new BenchFailure("offload=never context offloaded");
        }
        code = http.status("http://127.0.0.1:" + rig.nginx().ports().xaccel() + BenchServer.INTERNAL_PREFIX + SAMPLE);
        if (code != 404) {
            throw new BenchFailure("the internal location answered a direct request with " + code);
        }
        if (rig.options().has(Setup.CACHED)) {
            CachedDecisionChecks.verify(rig);
        }
        if (rig.options().has(Setup.SIGNED)) {
            SignedLinkChecks.verify(rig);
        }
        if (rig.store() != null) {
            RemoteChecks.verify(rig);
        }
    }

    private static void servesTheFile(BenchRig rig, Setup s) {
        servesTheFile(rig, s, SAMPLE);
    }

    /** The setup answers {@code name} (a path below the data root) with exactly its bytes. */
    private static void servesTheFile(BenchRig rig, Setup s, String name) {
        String url = s == Setup.SIGNED ? rig.endpoints().signed(SignedLinkChecks.linkTo(rig, name))
                : rig.endpoints().file(s, name);
        Http.Answer a = rig.http().get(url, rig.auth());
        if (a.status() != 200 || !sameBytes(rig, a.body(), name)) {
            throw new BenchFailure("setup " + s.id() + " (" + url + ") answered " + a.status() + " with "
                    + a.body().length + " bytes instead of the file");
        }
    }

    /** True when {@code body} is exactly the data file {@code name}. */
    static boolean sameBytes(BenchRig rig, byte[] body, String name) {
        try {
            return Arrays.equals(body, Files.readAllBytes(rig.data().file(name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer's status line and headers, for a failure message. */
    static String headers(Http.Answer a) {
        StringBuilder sb = new StringBuilder(a.response().version() + " " + a.status() + "\n");
        a.response().headers().map().forEach((k, v) -> v.forEach(x -> sb.append(k).append(": ").append(x)
                .append('\n')));
        return sb.toString();
    }

    /**
     * {@code url} with the first character of query parameter {@code name}'s value replaced by {@code to}, or by
     * {@code otherwise} where it is {@code to} already: a signature that is certainly wrong.
     */
    static String tamper(String url, String name, char to, char otherwise) {
        int at = url.indexOf(name + "=") + name.length() + 1;
        if (at == name.length() || at >= url.length()) {
            throw new BenchFailure("no " + name + " in " + url);
        }
        return url.substring(0, at) + (url.charAt(at) == to ? otherwise : to) + url.substring(at + 1);
    }
}
