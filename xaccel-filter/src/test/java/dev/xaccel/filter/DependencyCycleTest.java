package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import dev.xaccel.testsupport.classes.ClassGraph;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No dependency cycles among the filter's compiled classes (nested classes count as part of their top-level
 * class) nor among its packages ({@code jaxrs} uses the core, never the other way round). One pair is accepted by
 * name: {@code XAccelFilter.builder()} returns the {@link XAccelFilterBuilder} whose {@code build()} returns the
 * filter — the fluent factory of the public API; every other reference back into {@code XAccelFilter} fails here.
 * Run alone: {@code mvn -pl xaccel-filter -am test -Dtest=DependencyCycleTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class DependencyCycleTest {

    static final String FILTER = "dev/xaccel/filter/XAccelFilter";
    static final String BUILDER = "dev/xaccel/filter/XAccelFilterBuilder";

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
    void nothingButTheBuilderAndTheCompatibilityConstantsIsUsedByNameOfTheFilter() {
        Set<String> users = new java.util.TreeSet<>();
        graph.classes().forEach((from, to) -> {
            if (to.contains(FILTER)) {
                users.add(from);
            }
        });
        assertEquals(Set.of(BUILDER), users, "classes that refer back to XAccelFilter");
    }

    @Test
    void noCycleAmongPackages() {
        assertEquals(List.of(), graph.packageCycles());
        assertEquals(Set.of(), graph.packages().get("dev/xaccel/filter"), "the core does not use jaxrs");
    }
}
