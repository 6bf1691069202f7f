package dev.xaccel.bench.check;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.BareAccelServlet;
import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;

/**
 * The checks of setups 12 ({@code bare}) and 13 ({@code uds}) before anything is measured: the bare servlet answers
 * the fixed header with an empty body (and only for plain names) behind the same auth filter as {@code /accel}
 * (401 without the token), and a request through the Unix-socket upstream
 * is really offloaded by the {@code /accel} filter (its MBean's {@code Offloaded} grows by one), not served by it
 * directly — which is what the filter does when it does not trust the connection. Setups 3, 13 and 16 reach the
 * hop's JVM and not the other. Setup 16 ({@code receipts}): a request through its nginx server is offloaded by the
 * {@code /receipts} filter and receipted exactly once (nginx's line reached the filter's receipt log and matched the
 * identifier), and the identifier never reaches the client.
 */
public final class HopChecks {

    /** How long the check waits for its one receipt. */
    private static final long RECEIPT_WAIT_MS = 5000;

    private HopChecks() {
    }

    /**
     * @param gate the run's secret, which the bare setup's nginx server sends in
     *             {@link BareAccelServlet#GATE_HEADER}
     */
    public static void verify(BenchRig rig, String gate) {
        Http http = rig.http();
        if (rig.options().has(Setup.BARE)) {
            String sample = rig.hop().url(BareAccelServlet.CONTEXT + "/files/" + SetupChecks.SAMPLE);
            Http.Answer a = http.get(sample, BareAccelServlet.GATE_HEADER, gate, "Authorization",
                    "Bearer " + rig.token());
            String header = a.header("X-Accel-Redirect").orElse("");
            if (a.status() != 200 || !header.equals(BenchServer.INTERNAL_PREFIX + SetupChecks.SAMPLE)
                    || a.body().length != 0) {
                Log.raw(SetupChecks.headers(a));
                throw new BenchFailure("the bare X-Accel servlet did not answer the fixed header with an empty body");
            }
            // the stand-in authentication of /accel: without the token, 401 even with the gate
            int code = http.get(sample, BareAccelServlet.GATE_HEADER, gate).status();
            if (code != 401) {
                throw new BenchFailure("the bare X-Accel servlet answered " + code + " without the token, not 401");
            }
            code = http.get(rig.hop().url(BareAccelServlet.CONTEXT + "/files/.." + "%2F" + "x"),
                    BareAccelServlet.GATE_HEADER, gate, "Authorization", "Bearer " + rig.token()).status();
            if (code != 404 && code != 400) {
                throw new BenchFailure("the bare X-Accel servlet answered " + code + " for a name that is not plain");
            }
            // through setup 3's server (which proxies every context, but sets no gate), even with the token: nothing
            code = http.get(rig.endpoints().base(Setup.XACCEL).replace("/accel/files", BareAccelServlet.CONTEXT
                    + "/files/" + SetupChecks.SAMPLE), rig.auth()).status();
            if (code != 404) {
                throw new BenchFailure("the bare X-Accel servlet answered " + code + " through setup 3's server");
            }
        }
        for (Setup s : Setup.HOP) {
            if (rig.options().has(s) && s != Setup.BARE) {
                reachesTheHopsJvmAlone(rig, s);
            }
        }
        if (rig.options().has(Setup.RECEIPTS)) {
            receipts(rig);
        }
    }

    private static void receipts(BenchRig rig) {
        // nginx writes its lines a buffer at a time (flush=1s): the lines of the checks before this one first
        BenchStats.ReceiptCounts before = rig.hopStats().awaitReceipts(new BenchStats.ReceiptCounts(0, 0, 0),
                RECEIPT_WAIT_MS);
        Http.Answer a = rig.http().get(rig.endpoints().file(Setup.RECEIPTS, SetupChecks.SAMPLE), rig.auth());
        BenchStats.ReceiptCounts d = rig.hopStats().awaitReceipts(before, RECEIPT_WAIT_MS).since(before);
        if (a.status() != 200 || d.offloaded() != 1 || d.receipted() != 1) {
            throw new BenchFailure("setup receipts: " + a.status() + ", the /receipts filter offloaded "
                    + d.offloaded() + " and got " + d.receipted() + " receipts instead of 1 and 1 (nginx's receipt "
                    + "lines not reaching " + rig.hop().receiptsFile() + "?)");
        }
        if (a.header("X-Xaccel-Receipt").isPresent()) {
            throw new BenchFailure("setup receipts: the receipt identifier reached the client");
        }
    }

    /**
     * A request of setup {@code s} (3, 13 or 16) is offloaded by its filter in the hop's JVM, and the other JVM's
     * filter of that context offloads nothing: the hop is measured in its JVM alone. For setup 13 it also shows that
     * the filter trusts the Unix socket (a filter that does not serves the file itself, unoffloaded).
     */
    private static void reachesTheHopsJvmAlone(BenchRig rig, Setup s) {
        String filter = s == Setup.RECEIPTS ? "filter/receipts" : "filter/accel";
        long hop0 = rig.hopStats().read().number(filter, "Offloaded");
        long other0 = rig.stats().read().number(filter, "Offloaded");
        Http.Answer a = rig.http().get(rig.endpoints().file(s, SetupChecks.SAMPLE), rig.auth());
        long hop = rig.hopStats().read().number(filter, "Offloaded") - hop0;
        long other = rig.stats().read().number(filter, "Offloaded") - other0;
        if (a.status() != 200 || hop != 1 || other != 0) {
            throw new BenchFailure("setup " + s.id() + ": " + a.status() + ", the hop's JVM offloaded " + hop
                    + " requests and the other JVM " + other + ", instead of 1 and 0 (upstream tomcat_hop not "
                    + "reached?" + (s == Setup.UDS ? " trustedProxies without unix? the socket not reached?" : "")
                    + ")");
        }
    }
}
