package dev.xaccel.bench.run;

import java.util.Optional;

/** The workloads of {@code --only}, in the order they run. */
public enum WorkloadKind {
    LARGE("large"), SMALL("small"), ACCEPT("accept"), THREADS("threads"), JMH("jmh");

    private final String id;

    WorkloadKind(String id) {
        this.id = id;
    }

    String id() {
        return id;
    }

    static Optional<WorkloadKind> byId(String id) {
        for (WorkloadKind w : values()) {
            if (w.id.equals(id)) {
                return Optional.of(w);
            }
        }
        return Optional.empty();
    }
}
