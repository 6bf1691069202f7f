package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.xaccel.testsupport.classes.ClassGraph;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No dependency cycles among the connector's compiled classes (a nested class counts as part of its top-level class)
 * nor among its packages: the API package may use {@code internal.os} and {@code internal.sendfile}, never the
 * other way round
 * ({@link ClassGraph} reads the constant pools of the class files in {@code target/classes}).
 */
class DependencyCycleTest {

    private static ClassGraph graph;

    @BeforeAll
    static void readClasses() throws Exception {
        Path root = Path.of(AcceptFilter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        graph = ClassGraph.read(root, "dev/xaccel/tomcat");
        assertTrue(graph.classes().containsKey("dev/xaccel/tomcat/AcceptFilterNioEndpoint"),
                graph.classes().toString());
        assertTrue(graph.classes().containsKey("dev/xaccel/tomcat/internal/os/NativeSockets"));
    }

    @Test
    void noCycleAmongClasses() {
        assertEquals(List.of(), graph.classCycles(),
                "classes that depend on each other (strongly connected components)");
        // the reader does see references
        assertTrue(graph.classes().get("dev/xaccel/tomcat/AcceptFilterNioEndpoint")
                .contains("dev/xaccel/tomcat/AcceptFilterInstaller"), graph.classes().toString());
    }

    @Test
    void noCycleAmongPackages() {
        Map<String, Set<String>> packages = graph.packages();
        assertEquals(List.of(), graph.packageCycles(), "packages that depend on each other");
        assertEquals(Set.of("dev/xaccel/tomcat/internal/os", "dev/xaccel/tomcat/internal/sendfile"),
                packages.get("dev/xaccel/tomcat"));
        assertEquals(Set.of(), packages.get("dev/xaccel/tomcat/internal/os"));
        assertEquals(Set.of(), packages.get("dev/xaccel/tomcat/internal/sendfile"));
    }
}
