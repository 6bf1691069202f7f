package dev.xaccel.bench.check;

import java.util.List;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.StoreAccount;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.BenchStats;
import dev.xaccel.bench.setup.BenchStore;

/**
 * Before the remote setups are measured: each serves the object byte-exact (SetupChecks), remote-offload is really
 * offloaded (Tomcat answers nginx with an empty {@code X-Accel-Redirect: /_xaccel/remote/…}, its filter counts an
 * offload and not a byte served, and the store is asked once), remote-direct really streams (the object, no
 * redirect, the bytes counted), the application's 401 never reaches the store, and the store refuses what is not
 * presigned (so setup store measures presigned GETs, not an open bucket). Any wrong answer is a {@link BenchFailure}.
 */
final class RemoteChecks {

    static final String FILTER = "filter/remote";

    private RemoteChecks() {
    }

    static void verify(BenchRig rig) {
        BenchStore store = rig.store();
        String sample = SetupChecks.SAMPLE;
        String object = "GET /" + StoreAccount.BUCKET + "/" + sample;
        Http http = rig.http();
        String viaNginx = rig.endpoints().file(Setup.REMOTE_OFFLOAD, sample);
        String direct = rig.endpoints().file(Setup.REMOTE_DIRECT, sample);

        long asked = count(store.requests(), object);
        int code = http.status(viaNginx);
        if (code != 401 || count(store.requests(), object) != asked) {
            throw new BenchFailure("remote: a request without token got " + code + " or reached the store");
        }

        Http.Answer decision = http.get(direct, "Authorization", "Bearer " + rig.token(), "X-Sendfile-Type",
                "X-Accel-Redirect");
        String redirect = decision.header("X-Accel-Redirect").orElse("");
        String expected = "/_xaccel/remote/http/127.0.0.1:" + store.port() + "/" + StoreAccount.BUCKET + "/" + sample
                + "?";
        if (decision.status() != 200 || !redirect.startsWith(expected) || decision.body().length != 0) {
            Log.raw(SetupChecks.headers(decision));
            throw new BenchFailure("remote: the filter did not offload to " + expected + "…");
        }

        BenchStats.Snapshot before = rig.stats().read();
        asked = count(store.requests(), object);
        Http.Answer offloaded = http.get(viaNginx, rig.auth());
        BenchStats.Snapshot after = rig.stats().read();
        if (offloaded.status() != 200 || !SetupChecks.sameBytes(rig, offloaded.body(), sample)
                || after.number(FILTER, "Offloaded") != before.number(FILTER, "Offloaded") + 1
                || after.number(FILTER, "BytesServedDirectly") != before.number(FILTER, "BytesServedDirectly")
                || count(store.requests(), object) != asked + 1) {
            throw new BenchFailure("remote-offload was not offloaded (status " + offloaded.status() + ", filter "
                    + before.joined(e -> e.name().equals(FILTER), false) + " → "
                    + after.joined(e -> e.name().equals(FILTER), false) + ")");
        }

        Http.Answer streamed = http.get(direct, rig.auth());
        BenchStats.Snapshot last = rig.stats().read();
        if (streamed.status() != 200 || streamed.header("X-Accel-Redirect").isPresent()
                || !SetupChecks.sameBytes(rig, streamed.body(), sample)
                || last.number(FILTER, "BytesServedDirectly") != after.number(FILTER, "BytesServedDirectly")
                        + streamed.body().length) {
            throw new BenchFailure("remote-direct did not stream the object through the filter");
        }

        String base = rig.endpoints().base(Setup.STORE) + "/" + sample;
        String tampered = SetupChecks.tamper(rig.endpoints().file(Setup.STORE, sample), "X-Amz-Signature",
                '0', '1');
        for (String url : List.of(base, tampered)) {
            Http.Answer a = http.get(url);
            if (a.status() == 200 || SetupChecks.sameBytes(rig, a.body(), sample)) {
                throw new BenchFailure("the store served " + url.replaceAll("\\?.*", "?…")
                        + " without a valid presign");
            }
        }
        code = http.status("http://127.0.0.1:" + rig.nginx().ports().remote() + redirect);
        if (code != 404) {
            throw new BenchFailure("the internal remote location answered a direct request with " + code);
        }
        Log.info("remote setups: offloaded (nginx fetched from the store, Tomcat sent no byte), streamed directly, "
                + "401 never reaching the store, unsigned and tampered GETs refused");
    }

    private static long count(List<String> requests, String line) {
        return requests.stream().filter(line::equals).count();
    }
}
