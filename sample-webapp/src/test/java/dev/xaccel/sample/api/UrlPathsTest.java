package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class UrlPathsTest {

    @Test
    void encodesEverythingButUnreservedAndSlash() {
        assertEquals("Anonymous/What%3F%20Why%20%2B%20How/Part%202%20%E2%80%93%2050%25%20done.wav",
                UrlPaths.encodePath("Anonymous/What? Why + How/Part 2 – 50% done.wav"));
        assertEquals("a%23b/Bonus%2520track%20%28literal%29.wav",
                UrlPaths.encodePath("a#b/Bonus%20track (literal).wav"));
        assertEquals("S%C3%B8ren/A-Z_a.z~0", UrlPaths.encodePath("Søren/A-Z_a.z~0"));
    }
}
