package dev.xaccel.bench;

/** One part of the run that measures (and records into {@link BenchRig#results()}). */
interface Workload {

    void run(BenchRig rig);
}
