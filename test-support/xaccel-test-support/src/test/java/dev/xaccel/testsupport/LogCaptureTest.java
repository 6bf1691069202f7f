package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class LogCaptureTest {

    static final String PARENT = "dev.xaccel.testsupport.capture";
    static final Logger CHILD = Logger.getLogger(PARENT + ".child");

    @Test
    void alongsideOrInsteadOfTheParentsHandlers() {
        try (LogCapture parent = LogCapture.exclusive(PARENT)) {
            try (LogCapture child = LogCapture.of(CHILD.getName())) {
                CHILD.warning("both");
                assertTrue(child.contains("both"));
                assertTrue(parent.contains("both"));
            }
            try (LogCapture alone = LogCapture.exclusive(CHILD.getName())) {
                CHILD.warning("hidden {0}");
                CHILD.log(Level.INFO, "formatted {0}", "in");
                assertEquals(2, alone.records().size());
                assertEquals(1, alone.count(Level.WARNING, "hidden"));
                assertEquals(1, alone.count(Level.INFO, "formatted in"));
                assertEquals(0, alone.count(Level.SEVERE, "hidden"));
                assertEquals(List.of("WARNING hidden {0}"), alone.messages(Level.WARNING));
                assertEquals(List.of("WARNING hidden {0}", "INFO formatted in"), alone.messages(Level.ALL));
            }
            assertFalse(parent.contains("hidden"));
            assertTrue(CHILD.getUseParentHandlers());
            CHILD.log(Level.SEVERE, "failed", new IllegalStateException("outer", new RuntimeException("the cause")));
            assertTrue(parent.containsThrown("the cause"));
            assertFalse(parent.containsThrown("nothing like it"));
            assertEquals(2, parent.records().size());
        }
    }
}
