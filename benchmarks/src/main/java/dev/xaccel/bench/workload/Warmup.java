package dev.xaccel.bench.workload;

import java.util.Optional;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.BenchOptions;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.WorkloadKind;
import dev.xaccel.bench.setup.BenchRig;
import dev.xaccel.bench.setup.DataSet;

/**
 * Not recorded: one large download (when the large-file workload runs) and some seconds of wrk per setup, and the
 * accept-filter connectors once each, so that the first measured setup does not pay for the JIT.
 */
public final class Warmup implements Workload {

    @Override
    public void run(BenchRig rig) {
        BenchOptions o = rig.options();
        int secs = o.warmupSeconds();
        Log.info("warm-up (not recorded): one large download and " + secs + " s of wrk per setup");
        for (Setup s : o.setups()) {
            if (o.wants(WorkloadKind.LARGE) && !s.smallOnly()) {
                String result = rig.curl().download(rig.endpoints().file(s, DataSet.BIG));
                if (result.contains("curl-failed")) {
                    throw new BenchFailure("warm-up download failed for " + s.id());
                }
            }
            rig.wrk(s, 8, secs);
        }
        if (rig.tomcat().acceptFilterPort().isPresent() && o.wants(WorkloadKind.ACCEPT)) {
            rig.wrk().run(AcceptFilterWorkload.base(rig.tomcat().acceptFilterPort().getAsInt()), 4, secs,
                    Optional.empty());
            rig.wrk().run(AcceptFilterWorkload.base(rig.tomcat().acceptPlainPort()), 4, secs,
                    Optional.empty());
        }
    }
}
