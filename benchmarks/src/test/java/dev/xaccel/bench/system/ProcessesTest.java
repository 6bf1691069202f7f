package dev.xaccel.bench.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesTest {

    @Test
    void runReturnsOutputAndExitCode() {
        try (Processes p = new Processes(Duration.ofMillis(200))) {
            Processes.Result r = p.run(List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Map.of());
            assertEquals(3, r.exitCode());
            assertTrue(r.output().contains("out") && r.output().contains("err"), r.output());
            assertEquals("x\n", p.stdout(List.of("sh", "-c", "echo x; echo noise >&2")));
        }
    }

    @Test
    void stopEndsAProcessThatIgnoresSigtermAndWhatItStarted(@TempDir Path dir) throws Exception {
        Path child = dir.resolve("child.pid");
        try (Processes p = new Processes(Duration.ofMillis(300))) {
            Process parent = p.start(List.of("sh", "-c", "trap '' TERM; sleep 60 & echo $! > " + child + "; wait"),
                    Map.of(), dir.resolve("log"));
            for (int i = 0; i < 100 && !(Files.exists(child) && Files.size(child) > 0); i++) {
                Thread.sleep(20);
            }
            ProcessHandle sleeper = ProcessHandle.of(Long.parseLong(Files.readString(child).trim())).orElseThrow();
            p.stop(parent);
            assertFalse(parent.isAlive());
            sleeper.onExit().get();
            assertFalse(sleeper.isAlive());
        }
    }

    @Test
    void anAdoptedProcessIsStoppedWithTheOthers() throws Exception {
        Process outside = new ProcessBuilder("sleep", "60").start();
        try (Processes p = new Processes(Duration.ofMillis(200))) {
            p.adopt(outside.pid());
        }
        assertFalse(outside.isAlive());
    }

    @Test
    void closeStopsEverythingStillRunning(@TempDir Path dir) {
        Process a;
        Process b;
        try (Processes p = new Processes(Duration.ofMillis(200))) {
            a = p.start(List.of("sleep", "60"), Map.of(), dir.resolve("a"));
            b = p.start(List.of("sleep", "60"), Map.of(), dir.resolve("b"));
        }
        assertFalse(a.isAlive());
        assertFalse(b.isAlive());
    }
}
