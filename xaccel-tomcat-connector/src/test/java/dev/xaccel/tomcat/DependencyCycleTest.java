package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No dependency cycles among the connector's compiled classes (a nested class counts as part of its top-level class)
 * nor among its packages: the API package may use {@code internal.os}, never the other way round. The references
 * are read from the constant pools of the class files in {@code target/classes}: class entries, field and method
 * descriptors, generic signatures. A constant that javac inlines ({@code static final} strings and numbers) counts
 * too: javac keeps a class entry for the class that declares it.
 */
class DependencyCycleTest {

    private static final Pattern OWN = Pattern.compile("dev/xaccel/tomcat/[A-Za-z0-9_/$]+");

    /** Top-level class (binary name with slashes) to the other top-level classes of this module it references. */
    private static final Map<String, Set<String>> GRAPH = new TreeMap<>();

    @BeforeAll
    static void readClasses() throws IOException, URISyntaxException {
        Path root = Paths.get(AcceptFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(root), root + " is not the compiled classes directory");
        List<Path> classFiles;
        try (Stream<Path> walk = Files.walk(root)) {
            classFiles = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        Map<String, Set<String>> raw = new HashMap<>();
        for (Path file : classFiles) {
            String name = root.relativize(file).toString().replace('\\', '/').replaceAll("\\.class$", "");
            raw.computeIfAbsent(topLevel(name), k -> new TreeSet<>()).addAll(references(Files.readAllBytes(file)));
        }
        for (Map.Entry<String, Set<String>> e : raw.entrySet()) {
            Set<String> targets = new TreeSet<>();
            for (String ref : e.getValue()) {
                String top = topLevel(ref);
                if (!top.equals(e.getKey()) && raw.containsKey(top)) {
                    targets.add(top);
                }
            }
            GRAPH.put(e.getKey(), targets);
        }
        assertTrue(GRAPH.containsKey("dev/xaccel/tomcat/AcceptFilterNioEndpoint"), GRAPH.keySet().toString());
        assertTrue(GRAPH.containsKey("dev/xaccel/tomcat/internal/os/NativeSockets"), GRAPH.keySet().toString());
    }

    @Test
    void noCycleAmongClasses() {
        assertEquals(List.of(), cycles(GRAPH), "classes that depend on each other (strongly connected components)");
        // the reader does see references
        assertTrue(GRAPH.get("dev/xaccel/tomcat/AcceptFilterNioEndpoint")
                .contains("dev/xaccel/tomcat/AcceptFilterInstaller"), GRAPH.toString());
    }

    @Test
    void noCycleAmongPackages() {
        Map<String, Set<String>> packages = new TreeMap<>();
        GRAPH.forEach((from, targets) -> {
            Set<String> out = packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>());
            for (String to : targets) {
                if (!packageOf(to).equals(packageOf(from))) {
                    out.add(packageOf(to));
                }
            }
        });
        assertEquals(List.of(), cycles(packages), "packages that depend on each other");
        assertEquals(Set.of("dev/xaccel/tomcat/internal/os"), packages.get("dev/xaccel/tomcat"));
        assertEquals(Set.of(), packages.get("dev/xaccel/tomcat/internal/os"));
    }

    private static String topLevel(String binaryName) {
        int dollar = binaryName.indexOf('$', binaryName.lastIndexOf('/') + 1);
        return dollar < 0 ? binaryName : binaryName.substring(0, dollar);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('/'));
    }

    /** The names under {@code dev/xaccel/tomcat/} that a class file's constant pool mentions. */
    private static Set<String> references(byte[] classFile) throws IOException {
        Set<String> refs = new TreeSet<>();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        assertEquals(0xCAFEBABE, in.readInt());
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: // Utf8: class names, descriptors, signatures
                    Matcher m = OWN.matcher(in.readUTF());
                    while (m.find()) {
                        refs.add(m.group());
                    }
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    in.skipBytes(2);
                    break;
                case 15: // MethodHandle
                    in.skipBytes(3);
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                    in.skipBytes(4);
                    break;
                case 5: case 6: // Long, Double: two entries
                    in.skipBytes(8);
                    i++;
                    break;
                default:
                    throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return refs;
    }

    /** Tarjan's strongly connected components with more than one node. */
    private static List<Set<String>> cycles(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        List<Set<String>> result = new ArrayList<>();
        for (String node : graph.keySet()) {
            if (!index.containsKey(node)) {
                connect(node, graph, index, low, stack, onStack, result);
            }
        }
        return result;
    }

    private static void connect(String node, Map<String, Set<String>> graph, Map<String, Integer> index,
            Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> result) {
        index.put(node, index.size());
        low.put(node, index.get(node));
        stack.push(node);
        onStack.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(next)) {
                connect(next, graph, index, low, stack, onStack, result);
                low.put(node, Math.min(low.get(node), low.get(next)));
            } else if (onStack.contains(next)) {
                low.put(node, Math.min(low.get(node), index.get(next)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                result.add(component);
            }
        }
    }
}
