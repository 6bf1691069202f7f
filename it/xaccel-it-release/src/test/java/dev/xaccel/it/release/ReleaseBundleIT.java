package dev.xaccel.it.release;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The release build with a throwaway key, twice from the same sources in two places; its bundle checked as Maven
 * Central's validation would (scripts/CheckBundle.java), and the check shown to refuse a bundle that lacks what
 * Central requires: each case alters one thing in a copy of the good bundle.
 */
class ReleaseBundleIT {

    private static final Path WORK = Path.of("target", "release").toAbsolutePath();
    private static ThrowawayKey key;
    private static ReleaseBuild build;
    private static BundleCheck check;
    private static Path bundle;
    private static Path secondBundle;
    private static String group;

    @BeforeAll
    static void stageTwice() throws Exception {
        delete(WORK);
        Files.createDirectories(WORK);
        key = ThrowawayKey.generate(WORK.resolve("gnupg"));
        Path root = Path.of(System.getProperty("xaccel.root"));
        build = new ReleaseBuild(root, System.getProperty("xaccel.version"));
        bundle = WORK.resolve("bundle");
        secondBundle = WORK.resolve("bundle-2");
        // the two builds at once, in two copies at different paths: each takes one core for most of its time
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> stage("checkout-2", secondBundle));
        stage("checkout", bundle);
        second.join();
        check = BundleCheck.compile(root.resolve("scripts/CheckBundle.java"), WORK.resolve("check-classes"),
                key.environment());
        group = "dev/xaccel/";
    }

    private static String stage(String copy, Path into) {
        try {
            return build.stage(WORK.resolve(copy), into, key.environment());
        } catch (Exception e) {
            throw new IllegalStateException("release build in " + copy + " failed", e);
        }
    }

    @AfterAll
    static void stopAgent() throws Exception {
        if (key != null) {
            key.close();
        }
    }

    @Test
    void theReleaseBundleHoldsWhatCentralRequires() throws Exception {
        Commands.Result result = check.run(bundle);
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().startsWith("bundle ok"), result.output());
        for (String module : build.publishedModules()) {
            for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar", ".pom")) {
                Path file = file(bundle, module, suffix);
                for (String extra : List.of("", ".asc", ".md5", ".sha1")) {
                    assertTrue(Files.isRegularFile(Path.of(file + extra)), file + extra);
                }
            }
        }
        assertTrue(Files.isRegularFile(file(bundle, "xaccel-bom", ".pom.asc")));
        assertTrue(Files.isRegularFile(file(bundle, "xaccel-parent", ".pom.asc")));
        try (Stream<Path> artifacts = Files.list(bundle.resolve(group))) {
            List<String> names = artifacts.map(p -> p.getFileName().toString()).sorted().toList();
            // xaccel-test is published (assertions for applications' tests); the test fixtures are not
            assertFalse(names.stream().anyMatch(n -> n.contains("sample") || n.contains("-it-")
                    || n.contains("test-support") || n.contains("test-store") || n.contains("suite")
                    || n.contains("bench")), names.toString());
        }
    }

    @Test
    void twoBuildsOfTheSameSourcesGiveTheSameBytes() throws Exception {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(bundle)) {
            files = walk.filter(p -> p.toString().endsWith(".jar") || p.toString().endsWith(".pom")).sorted().toList();
        }
        assertEquals(3 * build.publishedModules().size() + build.publishedModules().size() + 2, files.size(),
                files.toString());
        for (Path file : files) {
            Path other = secondBundle.resolve(bundle.relativize(file));
            assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(other), bundle.relativize(file).toString());
        }
    }

    @Test
    void aMissingSourcesJarFails() throws Exception {
        Path copy = copyOfBundle("no-sources");
        deleteWithSidecars(file(copy, "xaccel-filter", "-sources.jar"));
        assertFails(copy, "xaccel-filter: missing " + group + "xaccel-filter/" + build.version()
                + "/xaccel-filter-" + build.version() + "-sources.jar");
    }

    @Test
    void aMissingJavadocJarFails() throws Exception {
        Path copy = copyOfBundle("no-javadoc");
        deleteWithSidecars(file(copy, "xaccel-spring-boot-starter", "-javadoc.jar"));
        assertFails(copy, "xaccel-spring-boot-starter-" + build.version() + "-javadoc.jar");
    }

    @Test
    void aMissingSignatureFails() throws Exception {
        Path copy = copyOfBundle("no-signature");
        Files.delete(Path.of(file(copy, "xaccel-tomcat-connector", ".jar") + ".asc"));
        assertFails(copy, "xaccel-tomcat-connector-" + build.version() + ".jar: missing signature");
    }

    @Test
    void aMissingRequiredPomElementFails() throws Exception {
        Path copy = copyOfBundle("no-licenses");
        Path pom = file(copy, "xaccel-bom", ".pom");
        String text = Files.readString(pom);
        String without = text.replaceAll("(?s)<licenses>.*</licenses>", "");
        assertTrue(without.length() < text.length(), "the BOM declares its licenses");
        Files.writeString(pom, without);
        // signed and summed again: only the missing element is wrong
        key.sign(pom);
        writeChecksums(pom);
        Commands.Result result = assertFails(copy, "xaccel-bom: pom lacks <licenses/license/name>");
        assertEquals(2, result.output().lines().count(), result.output());
    }

    @Test
    void anAlteredJarFailsItsChecksumsAndSignature() throws Exception {
        Path copy = copyOfBundle("altered");
        Path jar = file(copy, "xaccel-filter", ".jar");
        Files.write(jar, "altered".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        Commands.Result result = assertFails(copy, "xaccel-filter-" + build.version() + ".jar.sha1 does not match");
        assertTrue(result.output().contains(".jar.md5 does not match"), result.output());
        assertTrue(result.output().contains(".jar.asc does not verify"), result.output());
    }

    @Test
    void anUnpublishedModuleInTheBundleFails() throws Exception {
        Path copy = copyOfBundle("sample");
        Path stray = copy.resolve(group + "sample-webapp/" + build.version());
        Files.createDirectories(stray);
        Files.writeString(stray.resolve("sample-webapp-" + build.version() + ".pom"), "<project/>");
        assertFails(copy, "sample-webapp: in the bundle but not published");
    }

    private static Commands.Result assertFails(Path copy, String expected) throws Exception {
        Commands.Result result = check.run(copy);
        assertEquals(1, result.exitCode(), result.output());
        assertTrue(result.output().contains(expected), "expected \"" + expected + "\" in:\n" + result.output());
        return result;
    }

    private static Path file(Path root, String artifactId, String suffix) {
        return root.resolve(group + artifactId + "/" + build.version() + "/" + artifactId + "-" + build.version()
                + suffix);
    }

    private static Path copyOfBundle(String name) throws Exception {
        Path copy = WORK.resolve("cases").resolve(name).resolve("bundle");
        delete(copy);
        try (Stream<Path> walk = Files.walk(bundle)) {
            for (Path p : walk.toList()) {
                Path to = copy.resolve(bundle.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        return copy;
    }

    private static void deleteWithSidecars(Path file) throws Exception {
        for (String extra : List.of("", ".asc", ".md5", ".sha1")) {
            Files.delete(Path.of(file + extra));
        }
    }

    private static void writeChecksums(Path file) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        for (Map.Entry<String, String> sum : Map.of("md5", "MD5", "sha1", "SHA-1").entrySet()) {
            String hex = HexFormat.of().formatHex(MessageDigest.getInstance(sum.getValue()).digest(bytes));
            Files.writeString(Path.of(file + "." + sum.getKey()), hex);
        }
    }

    private static void delete(Path dir) throws Exception {
        if (Files.exists(dir)) {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }
}
