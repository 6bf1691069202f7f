package dev.xaccel.bench.check;

import java.net.http.HttpClient;
import java.util.List;

import dev.xaccel.bench.client.Http;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.server.BenchServer;
import dev.xaccel.bench.setup.BenchRig;

/**
 * Setup 6 (cached decisions): the right bytes, from the application's decision and then from the cached one; 401
 * without a token or with a wrong one, also after an "allow" for that file is cached (never from another
 * credential's cache entry); a repeated request does not reach the application; the internal location is not
 * reachable.
 */
final class CachedDecisionChecks {

    private static final List<String> FILES = List.of("small-011.bin", "small-012.bin");

    private CachedDecisionChecks() {
    }

    static void verify(BenchRig rig) {
        Http http = rig.http();
        String base = rig.endpoints().base(Setup.CACHED);
        for (String f : FILES) {
            int code = http.status(base + "/" + f);
            if (code != 401) {
                throw new BenchFailure("cached: a request without token got " + code + " for " + f);
            }
        }
        long n0 = rig.stats().cachedBackendRequests();
        long n1 = n0;
        String file = FILES.get(0);
        for (int attempt = 1; attempt <= 3; attempt++) {
            Http.Answer a = http.get(base + "/" + file, rig.auth());
            if (a.status() != 200 || a.response().version() != HttpClient.Version.HTTP_1_1
                    || !SetupChecks.sameBytes(rig, a.body(), file)) {
                Log.raw(SetupChecks.headers(a));
                throw new BenchFailure("cached: attempt " + attempt + " did not return " + file);
            }
            if (attempt == 1) {
                n1 = rig.stats().cachedBackendRequests();
            }
        }
        long n2 = rig.stats().cachedBackendRequests();
        if (n1 != n0 + 1) {
            throw new BenchFailure("cached: the first request reached the application " + (n1 - n0)
                    + " times, not once");
        }
        if (n2 != n1) {
            throw new BenchFailure("cached: repeated requests reached the application " + (n2 - n1)
                    + " more times (decision not cached)");
        }
        for (String f : FILES) { // small-011's allow is cached now: still no file without the token
            int code = http.status(base + "/" + f);
            if (code != 401) {
                throw new BenchFailure("cached: a request without token got " + code + " for " + f
                        + " after a cached allow");
            }
            code = http.status(base + "/" + f, "Authorization", "Bearer wrong-" + rig.token());
            if (code != 401) {
                throw new BenchFailure("cached: a request with a wrong token got " + code + " for " + f);
            }
        }
        int code = http.status("http://127.0.0.1:" + rig.nginx().ports().cached() + BenchServer.INTERNAL_PREFIX
                + file);
        if (code != 404) {
            throw new BenchFailure("cached: the internal location answered a direct request with " + code);
        }
        Log.info("cached: right bytes, 401 without/with a wrong token, repeats served from the decision cache ("
                + (n2 - n0) + " backend request for 3)");
    }
}
