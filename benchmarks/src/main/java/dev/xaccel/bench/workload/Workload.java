package dev.xaccel.bench.workload;

import dev.xaccel.bench.setup.BenchRig;

/** One part of the run that measures (and records into {@link BenchRig#results()}). */
public interface Workload {

    void run(BenchRig rig);
}
