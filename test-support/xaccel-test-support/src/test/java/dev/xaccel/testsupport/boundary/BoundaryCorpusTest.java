package dev.xaccel.testsupport.boundary;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;

import org.junit.jupiter.api.Test;

class BoundaryCorpusTest {

    static final List<String> TARGETS = BoundaryCorpus.targets(List.of("/assets/app.css", "/s/x.jpg?md5=a&expires=1"),
            List.of("/library/A%20B/T/cover.png"));

    @Test
    void holdsTheReviewsReproductions() {
        assertTrue(TARGETS.contains("/assets/app.css;%2F..%2F..%2Flibrary%2FA%20B%2FT%2Fcover.png"), "path parameter");
        assertTrue(TARGETS.contains("/assets/app.css;/../../library/A%20B/T/cover.png"));
        assertTrue(TARGETS.contains("/assets/app.css/%2E%2E/%2E%2E/library/A%20B/T/cover.png"), "encoded dots");
        assertTrue(TARGETS.contains("/library%252FA%20B%252FT%252Fcover.png"), "double-encoded separator");
        assertTrue(TARGETS.contains("/library%C0%AFA%20B%C0%AFT%C0%AFcover.png"), "overlong UTF-8");
        assertTrue(TARGETS.contains("/library\\A%20B\\T\\cover.png"), "backslashes");
        assertTrue(TARGETS.contains("/LIBRARY/A%20B/T/COVER.PNG"), "case");
        assertTrue(TARGETS.contains("//library//A%20B//T//cover.png"), "repeated slashes");
        assertTrue(TARGETS.contains("/library/A%20B/T/cover.png%3F"), "encoded ?");
        assertTrue(TARGETS.contains("/library/A%20B/T/cover.png%23x"), "encoded #");
    }

    @Test
    void keepsAStartsQueryAndHasNoDuplicates() {
        assertTrue(TARGETS.contains("/s/x.jpg;/../../library/A%20B/T/cover.png?md5=a&expires=1"));
        assertEquals(TARGETS.size(), new HashSet<>(TARGETS).size());
        assertTrue(TARGETS.size() > 200, "size " + TARGETS.size());
    }
}
