package dev.xaccel.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import dev.xaccel.bench.client.SlowClients;
import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.run.Sleep;
import dev.xaccel.bench.setup.BenchRig;

/**
 * Misbehaving clients ({@link SlowClients}) in a process of their own while a measurement runs: idle ones that
 * never send, slow ones that send a byte per second. Started once they have all tried to connect and the options'
 * settle time has passed; the caller stops the process.
 *
 * @param connected how many of them connected
 */
record Flood(Process process, long connected) {

    /** @param name the files' name in the run's directory ({@code <name>.ready}, {@code .out}, {@code .log}) */
    static Flood start(BenchRig rig, String name, int port, int idle, int slow, int seconds) {
        Path ready = rig.work().resolve(name + ".ready");
        Path out = rig.work().resolve(name + ".out");
        Path log = rig.work().resolve(name + ".log");
        try {
            Files.deleteIfExists(ready);
            Files.deleteIfExists(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process p = rig.processes().start(List.of(rig.java(), "-Xmx128m", "-cp", rig.classPath(),
                SlowClients.class.getName(), "--port", Integer.toString(port), "--idle", Integer.toString(idle),
                "--slow", Integer.toString(slow), "--duration-s", Integer.toString(seconds), "--token", rig.token(),
                "--path", "/stream/files/small-000.bin", "--ready", ready.toString(), "--out", out.toString()),
                Map.of(), log);
        for (int i = 0; i < 100 && !Files.exists(ready); i++) {
            Sleep.millis(100);
        }
        if (!Files.exists(ready)) {
            Log.tail(log, 40);
            throw new BenchFailure("the slow clients (" + name + ") did not start");
        }
        long connected;
        try {
            connected = Files.readAllLines(ready).stream().filter(l -> l.startsWith("connected="))
                    .mapToLong(l -> Long.parseLong(l.substring("connected=".length()).trim())).findFirst().orElse(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Sleep.of(rig.options().floodSettle());
        return new Flood(p, connected);
    }
}
