package dev.xaccel.sample.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated demo library: awkward names, real path, kept when it is there. */
class DemoLibraryTest {

    @TempDir
    Path dir;

    @Test
    void awkwardNamesAreAllThere() throws Exception {
        Path root = DemoLibrary.create(dir.resolve("lib"));
        assertThat(root).isEqualTo(root.toRealPath());
        for (int i = 0; i < DemoLibrary.FILES.size(); i++) {
            assertThat(Files.readAllBytes(root.resolve(DemoLibrary.FILES.get(i)))).isEqualTo(DemoLibrary.content(i));
        }
        String all = String.join("\n", DemoLibrary.FILES);
        assertThat(all).contains(" ", "#", "%", "?", "+", "東京", "Café");
        assertThat(DemoLibrary.FILES.stream().mapToInt(f -> f.getBytes(StandardCharsets.UTF_8).length).max()
                .getAsInt()).isGreaterThan(200);
        assertThat(DemoLibrary.FILES.stream().filter(f -> f.startsWith("Photos/Caf"))).hasSize(2)
                .doesNotHaveDuplicates();
    }

    @Test
    void anExistingLibraryIsKept() throws Exception {
        Path root = DemoLibrary.create(dir.resolve("lib"));
        Files.writeString(root.resolve("Readme.txt"), "changed");
        DemoLibrary.create(dir.resolve("lib"));
        assertThat(Files.readString(root.resolve("Readme.txt"))).isEqualTo("changed");
    }
}
