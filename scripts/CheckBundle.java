import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * Checks a release bundle the way Maven Central's validation does, before it is uploaded:
 * <pre>
 *   java scripts/CheckBundle.java target/central-bundle
 * </pre>
 * The bundle is a directory in the repository layout (groupId path / artifactId / version / files) as
 * {@code mvn -P release deploy} stages it. The set of published modules is the one xaccel-bom manages, plus the BOM
 * and the parent poms they inherit from; nothing else may be in the bundle. For each: a pom; for a jar, the jar, its
 * {@code -sources.jar} and {@code -javadoc.jar}; for every file a {@code .asc} that {@code gpg --verify} accepts
 * (the key from GNUPGHOME) and {@code .md5} and {@code .sha1} (and {@code .sha256}/{@code .sha512} where present)
 * that match; a release version; and in each pom, itself or inherited from a parent in the bundle, the elements
 * Central requires: name, description, url, licenses, developers, scm. Prints one line per problem and exits 1, or
 * prints a summary and exits 0.
 */
public final class CheckBundle {

    private static final String BOM = "xaccel-bom";
    private static final List<String> CHECKSUMS = List.of("md5", "sha1");
    private static final Map<String, String> OPTIONAL_CHECKSUMS = Map.of("sha256", "SHA-256", "sha512", "SHA-512");
    /** Central's required pom elements, as paths below {@code <project>}. */
    private static final List<String> REQUIRED_ELEMENTS = List.of("name", "description", "url", "licenses/license/name",
            "developers/developer", "scm/url", "scm/connection");

    private final Path root;
    private final List<String> problems = new ArrayList<>();
    private int files;

    private CheckBundle(Path root) {
        this.root = root;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: java scripts/CheckBundle.java BUNDLE_DIR");
            System.exit(2);
        }
        CheckBundle check = new CheckBundle(Path.of(args[0]));
        List<String> problems = check.run();
        if (problems.isEmpty()) {
            System.out.println("bundle ok: " + check.files + " files checked in " + args[0]);
        } else {
            problems.forEach(p -> System.out.println("FAIL " + p));
            System.out.println(problems.size() + " problem(s) in " + args[0]);
            System.exit(1);
        }
    }

    private List<String> run() throws Exception {
        List<Path> boms;
        try (Stream<Path> s = Files.walk(root)) {
            boms = s.filter(p -> p.getFileName().toString().matches(BOM + "-.+\\.pom")).toList();
        }
        if (boms.size() != 1) {
            problems.add("expected one " + BOM + " pom in the bundle, found " + boms.size());
            return problems;
        }
        Path bomPom = boms.get(0);
        Document bom = parse(bomPom);
        String groupId = text(bom.getDocumentElement(), "groupId");
        String version = text(bom.getDocumentElement(), "version");
        if (version == null || version.endsWith("-SNAPSHOT")) {
            problems.add(BOM + ": not a release version: " + version);
        }
        // the published set: the BOM, what it manages, and the parents of those (walked below)
        Map<String, Path> artifacts = new LinkedHashMap<>();
        artifacts.put(BOM, bomPom.getParent());
        for (Element dep : children(child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies"),
                "dependency")) {
            String a = text(dep, "artifactId");
            artifacts.put(a, versionDir(groupId, a, version));
        }
        Set<String> checked = new TreeSet<>();
        List<String> queue = new ArrayList<>(artifacts.keySet());
        while (!queue.isEmpty()) {
            String artifactId = queue.remove(0);
            if (!checked.add(artifactId)) {
                continue;
            }
            String parent = checkArtifact(groupId, artifactId, version);
            if (parent != null && !checked.contains(parent)) {
                queue.add(parent);
            }
        }
        Path groupDir = root.resolve(groupId.replace('.', '/'));
        if (Files.isDirectory(groupDir)) {
            try (Stream<Path> s = Files.list(groupDir)) {
                s.map(p -> p.getFileName().toString()).filter(a -> !checked.contains(a)).sorted()
                        .forEach(a -> problems.add(a + ": in the bundle but not published (not in " + BOM + ")"));
            }
        }
        return problems;
    }

    /** Checks one artifact's files and pom; returns the artifactId of its parent in the same group, if any. */
    private String checkArtifact(String groupId, String artifactId, String version) throws Exception {
        Path dir = versionDir(groupId, artifactId, version);
        String base = artifactId + "-" + version;
        Path pom = dir.resolve(base + ".pom");
        if (!Files.isRegularFile(pom)) {
            problems.add(artifactId + ": missing " + root.relativize(pom));
            return null;
        }
        checkFile(pom);
        Document doc = parse(pom);
        Element project = doc.getDocumentElement();
        String packaging = text(project, "packaging");
        if (packaging == null || packaging.equals("jar")) {
            for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
                Path file = dir.resolve(base + suffix);
                if (Files.isRegularFile(file)) {
                    checkFile(file);
                } else {
                    problems.add(artifactId + ": missing " + root.relativize(file));
                }
            }
        } else if (!packaging.equals("pom")) {
            problems.add(artifactId + ": packaging " + packaging + " is not published by xaccel");
        }
        for (String element : REQUIRED_ELEMENTS) {
            if (inherited(groupId, project, version, element) == null) {
                problems.add(artifactId + ": pom lacks <" + element + "> (neither declared nor inherited)");
            }
        }
        Element parent = child(project, "parent");
        if (parent != null && groupId.equals(text(parent, "groupId"))) {
            return text(parent, "artifactId");
        }
        return null;
    }

    /** The value of {@code path} in {@code project} or the nearest parent pom in the bundle that has it. */
    private String inherited(String groupId, Element project, String version, String path) throws Exception {
        Element current = project;
        while (current != null) {
            Element e = current;
            for (String step : path.split("/")) {
                e = child(e, step);
                if (e == null) {
                    break;
                }
            }
            if (e != null && !e.getTextContent().isBlank()) {
                return e.getTextContent().trim();
            }
            Element parent = child(current, "parent");
            if (parent == null || !groupId.equals(text(parent, "groupId"))) {
                return null;
            }
            String parentId = text(parent, "artifactId");
            Path parentPom = versionDir(groupId, parentId, version).resolve(parentId + "-" + version + ".pom");
            current = Files.isRegularFile(parentPom) ? parse(parentPom).getDocumentElement() : null;
        }
        return null;
    }

    /** A staged file: its checksums match, its signature verifies. */
    private void checkFile(Path file) throws IOException, InterruptedException, NoSuchAlgorithmException {
        files++;
        String name = root.relativize(file).toString();
        byte[] bytes = Files.readAllBytes(file);
        for (String algorithm : CHECKSUMS) {
            Path sum = Path.of(file + "." + algorithm);
            if (!Files.isRegularFile(sum)) {
                problems.add(name + ": missing checksum " + sum.getFileName());
            } else {
                compare(name, sum, bytes, algorithm.equals("md5") ? "MD5" : "SHA-1");
            }
        }
        for (Map.Entry<String, String> optional : OPTIONAL_CHECKSUMS.entrySet()) {
            Path sum = Path.of(file + "." + optional.getKey());
            if (Files.isRegularFile(sum)) {
                compare(name, sum, bytes, optional.getValue());
            }
        }
        Path signature = Path.of(file + ".asc");
        if (!Files.isRegularFile(signature)) {
            problems.add(name + ": missing signature " + signature.getFileName());
            return;
        }
        Process gpg = new ProcessBuilder("gpg", "--batch", "--verify", signature.toString(), file.toString())
                .redirectErrorStream(true).start();
        String out = new String(gpg.getInputStream().readAllBytes());
        if (gpg.waitFor() != 0) {
            problems.add(name + ": signature " + signature.getFileName() + " does not verify: "
                    + out.lines().filter(l -> l.contains("BAD") || l.contains("No public key")
                            || l.contains("no valid OpenPGP") || l.contains("not a detached"))
                    .findFirst().orElse(out.strip().replace('\n', ' ')));
        }
    }

    private void compare(String name, Path sum, byte[] bytes, String algorithm) throws IOException,
            NoSuchAlgorithmException {
        String expected = Files.readString(sum).trim().split("\\s+")[0].toLowerCase(Locale.ROOT);
        String actual = HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(bytes));
        if (!expected.equals(actual)) {
            problems.add(name + ": " + sum.getFileName() + " does not match the file");
        }
    }

    private Path versionDir(String groupId, String artifactId, String version) {
        return root.resolve(groupId.replace('.', '/')).resolve(artifactId).resolve(version);
    }

    private static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setNamespaceAware(false);
        return factory.newDocumentBuilder().parse(pom.toFile());
    }

    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> list = new ArrayList<>();
        if (parent != null) {
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals(name)) {
                    list.add(e);
                }
            }
        }
        return list;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? null : e.getTextContent().trim();
    }
}
