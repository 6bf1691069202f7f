package dev.xaccel.testsupport.servlet;

import java.nio.file.Path;
import java.util.Map;

/**
 * A filter or servlet of a test's {@link WebApp} that a {@link DeployedWar} can declare by class name for a server
 * in another JVM: its class has a public no-argument constructor and takes from its init-params what the instance
 * got from its constructor. What the tests read from the instance afterwards goes through files below
 * {@code dir}, which both JVMs see. A class with no such state and a no-argument constructor needs no
 * {@code WarDeclared}.
 */
public interface WarDeclared {

    /**
     * The init-params of the server's copy; from now on this instance reads what the copy records below
     * {@code dir} (created, this instance's own).
     */
    Map<String, String> warParams(Path dir);
}
