package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;

import dev.xaccel.filter.internal.fs.Resolution;

import org.junit.jupiter.api.Test;

/** The file name the content type is chosen by: the real file's, taken from its path below the root. */
class FileDeliveryTest {

    private static final Path ROOT = Path.of("/srv/media");

    @Test
    void theLastSegmentBelowTheRoot() {
        assertEquals("c d.mp3", FileDelivery.fileName(Resolution.ok(ROOT, ROOT.resolve("a/b/c d.mp3"), "a/b/c d.mp3")));
    }

    @Test
    void aFileAtTheTopIsItsRelativePathItself() {
        String relative = "cover.png";
        assertSame(relative, FileDelivery.fileName(Resolution.ok(ROOT, ROOT.resolve(relative), relative)));
    }

    @Test
    void aFileOutsideEveryRootByItsPath() {
        assertEquals("x.pdf", FileDelivery.fileName(Resolution.outsideRoots(Path.of("/elsewhere/x.pdf"))));
    }
}
