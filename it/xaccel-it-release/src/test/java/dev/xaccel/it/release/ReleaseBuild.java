package dev.xaccel.it.release;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The release build as docs/build.md describes it, run on a copy of this checkout: {@code scripts/set-version} to
 * the release version, then {@code mvn -P release deploy} of the parent, the BOM and every module the BOM manages,
 * staged into a bundle directory. Tests are left out ({@code -Dmaven.test.skip}: this build ran them), and so is the
 * install ({@code ~/.m2} is shared).
 */
final class ReleaseBuild {

    /** What is never copied: build output and the repository, anywhere; the benchmark reports. */
    private static final Set<String> SKIPPED = Set.of("target", ".git");
    private static final Path REPORTS = Path.of("benchmarks", "results");

    private final Path checkout;
    private final String version;

    ReleaseBuild(Path checkout, String snapshotVersion) {
        this.checkout = checkout;
        this.version = snapshotVersion.replace("-SNAPSHOT", "");
    }

    String version() {
        return version;
    }

    /** The artifactIds xaccel-bom manages: the published modules. */
    List<String> publishedModules() throws Exception {
        Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(checkout.resolve("xaccel-bom/pom.xml").toFile()).getDocumentElement();
        Element management = (Element) root.getElementsByTagName("dependencyManagement").item(0);
        NodeList ids = management.getElementsByTagName("artifactId");
        List<String> modules = new ArrayList<>();
        for (int i = 0; i < ids.getLength(); i++) {
            modules.add(ids.item(i).getTextContent().trim());
        }
        return modules;
    }

    /**
     * Copies the checkout to {@code copy}, sets the release version there and stages the release into
     * {@code bundle}; returns Maven's output.
     */
    String stage(Path copy, Path bundle, Map<String, String> keyEnvironment) throws Exception {
        copyTree(checkout, copy);
        Commands.run(copy, Map.of(), List.of("bash", "scripts/set-version", version, copy.toString()));
        List<String> projects = new ArrayList<>(List.of(":xaccel-parent", ":xaccel-bom"));
        publishedModules().forEach(m -> projects.add(":" + m));
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("xaccel.maven.home"), "bin", "mvn").toString(),
                // not offline: the deploy plugin refuses to run offline; with everything in the local repository
                // nothing is downloaded, and -nsu leaves snapshots alone
                "-B", "-nsu", "-P", "release",
                "-Dmaven.repo.local=" + System.getProperty("xaccel.maven.repo"),
                "-pl", String.join(",", projects), "-am",
                "-Dmaven.test.skip=true", "-Dmaven.install.skip=true", "-Dcheckstyle.skip",
                "-DaltDeploymentRepository=central-bundle::" + bundle.toUri(),
                "deploy"));
        return Commands.run(copy, keyEnvironment, command);
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            walk.filter(p -> from.relativize(p).toString().isEmpty() || !skipped(from.relativize(p)))
                    .forEach(p -> copy(p, to.resolve(from.relativize(p).toString())));
        }
    }

    private static boolean skipped(Path relative) {
        if (relative.startsWith(REPORTS)) {
            return true;
        }
        for (Path part : relative) {
            if (SKIPPED.contains(part.toString())) {
                return true;
            }
        }
        return false;
    }

    private static void copy(Path from, Path to) {
        try {
            if (Files.isDirectory(from)) {
                Files.createDirectories(to);
            } else if (Files.isRegularFile(from)) {
                Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
