package dev.xaccel.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NaturalOrderTest {

    @Test
    void numbersCompareByValue() {
        List<String> names = new ArrayList<>(List.of("Chapter 10.mp3", "chapter 2.mp3", "Chapter 1.mp3",
                "Chapter 02b.mp3", "Appendix.mp3"));
        names.sort(NaturalOrder.INSTANCE);
        assertEquals(List.of("Appendix.mp3", "Chapter 1.mp3", "chapter 2.mp3", "Chapter 02b.mp3",
                "Chapter 10.mp3"), names);
    }

    @Test
    void consistentWithEqualsForDifferentStrings() {
        assertEquals(true, NaturalOrder.INSTANCE.compare("a1", "a01") != 0);
        assertEquals(0, NaturalOrder.INSTANCE.compare("same", "same"));
    }
}
