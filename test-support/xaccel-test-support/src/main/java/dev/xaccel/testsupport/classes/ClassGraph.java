package dev.xaccel.testsupport.classes;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
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

/**
 * The dependencies among a module's compiled classes, read from the constant pools of the class files (class
 * entries, field and method descriptors, generic signatures), for tests that keep a module free of cycles. A
 * nested class counts as part of its top-level class. Names are binary names with slashes
 * ({@code dev/xaccel/filter/XAccelFilter}).
 */
public final class ClassGraph {

    private final Map<String, Set<String>> classes;

    private ClassGraph(Map<String, Set<String>> classes) {
        this.classes = classes;
    }

    /**
     * @param classesDir    a compiled classes directory ({@code target/classes})
     * @param packagePrefix the module's root package with slashes, e.g. {@code dev/xaccel/filter}: only classes
     *                      below it are nodes
     */
    public static ClassGraph read(Path classesDir, String packagePrefix) throws IOException {
        Pattern own = Pattern.compile(Pattern.quote(packagePrefix) + "/[A-Za-z0-9_/$]+");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(classesDir)) {
            files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        Map<String, Set<String>> raw = new HashMap<>();
        for (Path file : files) {
            String name = classesDir.relativize(file).toString().replace('\\', '/').replaceAll("\\.class$", "");
            if (name.startsWith(packagePrefix + "/")) {
                raw.computeIfAbsent(topLevel(name), k -> new TreeSet<>())
                        .addAll(references(Files.readAllBytes(file), own));
            }
        }
        Map<String, Set<String>> graph = new TreeMap<>();
        raw.forEach((from, refs) -> {
            Set<String> targets = new TreeSet<>();
            for (String ref : refs) {
                String top = topLevel(ref);
                if (!top.equals(from) && raw.containsKey(top)) {
                    targets.add(top);
                }
            }
            graph.put(from, Collections.unmodifiableSet(targets));
        });
        return new ClassGraph(Collections.unmodifiableMap(graph));
    }

    /** Every top-level class and the other top-level classes of the module it uses. */
    public Map<String, Set<String>> classes() {
        return classes;
    }

    /** The same graph without one edge (a dependency a test accepts by name). */
    public ClassGraph without(String from, String to) {
        Map<String, Set<String>> copy = new TreeMap<>(classes);
        Set<String> targets = new TreeSet<>(copy.getOrDefault(from, Set.of()));
        if (!targets.remove(to)) {
            throw new IllegalArgumentException("no edge " + from + " -> " + to);
        }
        copy.put(from, targets);
        return new ClassGraph(copy);
    }

    /** The package graph: each package and the other packages its classes use. */
    public Map<String, Set<String>> packages() {
        Map<String, Set<String>> packages = new TreeMap<>();
        classes.forEach((from, targets) -> {
            Set<String> out = packages.computeIfAbsent(packageOf(from), k -> new TreeSet<>());
            for (String to : targets) {
                if (!packageOf(to).equals(packageOf(from))) {
                    out.add(packageOf(to));
                }
            }
        });
        return packages;
    }

    /** The strongly connected components of more than one class: empty when there is no cycle. */
    public List<Set<String>> classCycles() {
        return cycles(classes);
    }

    /** The same among packages. */
    public List<Set<String>> packageCycles() {
        return cycles(packages());
    }

    private static String topLevel(String binaryName) {
        int dollar = binaryName.indexOf('$', binaryName.lastIndexOf('/') + 1);
        return dollar < 0 ? binaryName : binaryName.substring(0, dollar);
    }

    private static String packageOf(String className) {
        return className.substring(0, className.lastIndexOf('/'));
    }

    /** The module's names a class file's constant pool mentions. */
    private static Set<String> references(byte[] classFile, Pattern own) throws IOException {
        Set<String> refs = new TreeSet<>();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: // Utf8: class names, descriptors, signatures
                    Matcher m = own.matcher(in.readUTF());
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

    /**
     * Tarjan's strongly connected components with more than one node, of any graph given as each node's targets
     * (e.g. a package graph grouped otherwise than by package).
     */
    public static List<Set<String>> cycles(Map<String, Set<String>> graph) {
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
