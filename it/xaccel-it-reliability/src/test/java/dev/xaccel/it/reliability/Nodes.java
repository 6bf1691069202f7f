package dev.xaccel.it.reliability;

import dev.xaccel.testsupport.TestPaths;
import dev.xaccel.testsupport.tomcat.ForkedTomcat;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Several {@link Node}s in JVMs of their own, started side by side: the same root and the same options. */
final class Nodes implements AutoCloseable {

    private final List<ForkedTomcat> nodes;

    private Nodes(List<ForkedTomcat> nodes) {
        this.nodes = nodes;
    }

    /** {@code n} nodes under {@code target/<suite>/node-<i>}, ids 1..n, with {@code args} besides root and id. */
    static Nodes start(String suite, int n, Path root, String... args) throws Exception {
        List<CompletableFuture<ForkedTomcat>> starting = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            ForkedTomcat.Builder b = ForkedTomcat.builder(Node.class.getName(),
                    TestPaths.target().resolve(suite + "/node-" + i)).args("--root", root.toString(), "--id",
                            Integer.toString(i)).args(args);
            starting.add(CompletableFuture.supplyAsync(() -> {
                try {
                    return b.start();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        List<ForkedTomcat> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<ForkedTomcat> f : starting) {
            try {
                started.add(f.join());
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            started.forEach(ForkedTomcat::close);
            throw failure;
        }
        return new Nodes(started);
    }

    /** Node {@code i}, 1-based. */
    ForkedTomcat get(int i) {
        return nodes.get(i - 1);
    }

    List<ForkedTomcat> all() {
        return nodes;
    }

    /** {@code 127.0.0.1:<port>} of node {@code i}, for the template's {@code ${NODE_i}}. */
    String address(int i) {
        return "127.0.0.1:" + get(i).port();
    }

    @Override
    public void close() {
        nodes.forEach(ForkedTomcat::close);
    }
}
