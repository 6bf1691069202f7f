package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.xaccel.testsupport.classes.ClassGraph;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No dependency cycles among the filter's compiled classes (nested classes count as part of their top-level
 * class) nor among its stages. One pair is accepted by name: {@code XAccelFilter.builder()} returns the
 * {@link XAccelFilterBuilder} whose {@code build()} returns the filter — the fluent factory of the public API.
 * <p>
 * The API package holds two layers, as Jetty's {@code server} package does beside {@code server.internal}: the
 * entry points ({@link #ENTRY_POINTS}: the filter, its builder, {@link XAccel}) that wire and call the internal
 * stages, and the vocabulary the stages speak (values, enums, the exception, the names). The stages may use the
 * vocabulary, never an entry point; with the entry points counted as a package of their own the package graph
 * has no cycle. Run alone: {@code mvn -pl xaccel-filter -am test -Dtest=DependencyCycleTest
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class DependencyCycleTest {

    static final String FILTER = "dev/xaccel/filter/XAccelFilter";
    static final String BUILDER = "dev/xaccel/filter/XAccelFilterBuilder";
    static final Set<String> ENTRY_POINTS = Set.of(FILTER, BUILDER, "dev/xaccel/filter/XAccel");
    static final String INTERNAL = "dev/xaccel/filter/internal/";

    private static ClassGraph graph;

    @BeforeAll
    static void readClasses() throws Exception {
        Path root = Path.of(XAccelFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        graph = ClassGraph.read(root, "dev/xaccel/filter");
        assertTrue(graph.classes().size() > 30, graph.classes().keySet().toString());
    }

    @Test
    void noCycleAmongClassesButTheBuilderPair() {
        assertTrue(graph.classes().get(FILTER).contains(BUILDER), "the reader sees builder()");
        assertEquals(List.of(), graph.without(FILTER, BUILDER).classCycles(), "classes that depend on each other");
    }

    @Test
    void nothingButTheBuilderIsUsedByNameOfTheFilter() {
        Set<String> users = new TreeSet<>();
        graph.classes().forEach((from, to) -> {
            if (to.contains(FILTER)) {
                users.add(from);
            }
        });
        assertEquals(Set.of(BUILDER), users, "classes that refer back to XAccelFilter");
    }

    @Test
    void noStageUsesAnEntryPoint() {
        Map<String, Set<String>> uses = new TreeMap<>();
        graph.classes().forEach((from, to) -> {
            if (from.startsWith(INTERNAL)) {
                Set<String> entries = new TreeSet<>(to);
                entries.retainAll(ENTRY_POINTS);
                if (!entries.isEmpty()) {
                    uses.put(from, entries);
                }
            }
        });
        assertEquals(Map.of(), uses, "internal classes that call back into the API's entry points");
    }

    @Test
    void noCycleAmongPackagesWithTheEntryPointsApart() {
        Map<String, Set<String>> layered = new TreeMap<>();
        graph.classes().forEach((from, targets) -> {
            Set<String> out = layered.computeIfAbsent(layer(from), k -> new TreeSet<>());
            for (String to : targets) {
                if (!layer(to).equals(layer(from))) {
                    out.add(layer(to));
                }
            }
        });
        assertEquals(List.of(), ClassGraph.cycles(layered));
        assertEquals(Set.of(), graph.packages().get("dev/xaccel/filter/internal/util"), "util uses nothing");
        assertTrue(graph.packages().values().stream().noneMatch(p -> p.contains("dev/xaccel/filter/jaxrs")),
                "nothing uses jaxrs");
    }

    /** The class's package, the entry points counted as a package of their own. */
    private static String layer(String className) {
        return ENTRY_POINTS.contains(className) ? "dev/xaccel/filter(entry points)"
                : className.substring(0, className.lastIndexOf('/'));
    }
}
