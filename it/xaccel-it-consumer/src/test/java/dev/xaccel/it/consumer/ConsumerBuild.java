package dev.xaccel.it.consumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import dev.xaccel.testsupport.Processes;
import dev.xaccel.testsupport.TemplateRenderer;
import dev.xaccel.testsupport.TestPaths;

/**
 * The consumer project built as its user builds it: the page's command in a copy of {@code src/it/consumer}, run by
 * the Maven installation of this build. Its local repository is the module's own ({@code target/consumer-repo},
 * where maven-invoker-plugin installed this build's xaccel modules); everything else comes from this build's local
 * repository read as a repository ({@code src/it/settings.xml}), so nothing is installed into that one.
 */
final class ConsumerBuild {

    private ConsumerBuild() {
    }

    /** Builds the project of {@code source} in {@code dir} with {@code command} ({@code mvn ...}); the WAR. */
    static Path war(String command, Path source, Path dir) throws IOException {
        copyTree(source, dir);
        Path settings = dir.resolveSibling("consumer-settings.xml");
        Files.writeString(settings, TemplateRenderer.render(Path.of("src/it/settings.xml"), Map.of("OUTER_REPOSITORY",
                Path.of(System.getProperty("xaccel.maven.repo")).toUri().toString())), StandardCharsets.UTF_8);
        List<String> words = List.of(command.trim().split("\\s+"));
        if (!words.get(0).equals("mvn")) {
            throw new IllegalStateException("not a Maven command: " + command);
        }
        List<String> run = new ArrayList<>();
        run.add(Path.of(System.getProperty("xaccel.maven.home"), "bin", "mvn").toString());
        run.addAll(words.subList(1, words.size()));
        run.addAll(List.of("-s", settings.toString(), "-nsu",
                "-Dmaven.repo.local=" + System.getProperty("xaccel.it.consumerRepo"),
                "-Dxaccel.version=" + System.getProperty("xaccel.version")));
        Path log = dir.resolveSibling("consumer-build.log");
        ProcessBuilder pb = new ProcessBuilder(run).directory(dir.toFile());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().remove("MAVEN_OPTS");
        Optional<Integer> status = Processes.run(pb, log, Duration.ofMinutes(5));
        Path war = dir.resolve("target/files.war");
        if (status.isEmpty() || status.get() != 0 || !Files.isRegularFile(war)) {
            throw new IllegalStateException(String.join(" ", run) + " failed (" + status.map(s -> "exit " + s)
                    .orElse("timeout") + "):\n" + TestPaths.tail(log, 6000));
        }
        return war;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            walk.forEach(p -> {
                Path target = to.resolve(from.relativize(p).toString());
                try {
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        Files.copy(p, target);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
