package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessesTest {

    @Test
    void runReportsTheStatusAndAppendsTheOutput(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("out.txt");
        assertEquals(Optional.of(3), Processes.run(new ProcessBuilder("sh", "-c", "echo one; exit 3"), out,
                Duration.ofSeconds(10)));
        assertEquals(Optional.of(0), Processes.run(new ProcessBuilder("sh", "-c", "echo two >&2"), out,
                Duration.ofSeconds(10)));
        assertEquals("one\ntwo\n", Files.readString(out));
        assertEquals(Optional.empty(), Processes.run(new ProcessBuilder("sleep", "30"), out, Duration.ofMillis(200)));
    }

    @Test
    void aGracefulSignalIsEnough() throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "trap 'exit 0' QUIT; echo ready; while :; do sleep 0.1; done")
                .start();
        awaitReady(p); // the trap is set
        assertTrue(Processes.stop(p.toHandle(), "QUIT", Duration.ofSeconds(5), Duration.ofSeconds(2)));
        assertFalse(p.isAlive());
    }

    @Test
    void whatIgnoresTermIsKilledWithItsChildren() throws Exception {
        // sh and the sleep it starts ignore SIGTERM (an ignored signal stays ignored across exec)
        Process p = new ProcessBuilder("sh", "-c", "trap '' TERM; sleep 30 & echo ready; wait").start();
        awaitReady(p);
        List<ProcessHandle> children = p.descendants().toList();
        assertFalse(children.isEmpty());
        assertFalse(Processes.stop(p.toHandle(), null, Duration.ZERO, Duration.ofMillis(300)));
        assertFalse(p.isAlive());
        for (ProcessHandle c : children) {
            assertFalse(c.isAlive(), "child " + c.pid());
        }
    }

    /** Reads the script's "ready" line: what it did before it is done, however loaded the machine. */
    private static void awaitReady(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
        assertEquals("ready", out.readLine());
    }
}
