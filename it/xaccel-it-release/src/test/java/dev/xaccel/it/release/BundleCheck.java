package dev.xaccel.it.release;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.tools.ToolProvider;

/**
 * {@code scripts/CheckBundle.java}, the check a release engineer runs before uploading, compiled once and run as its
 * own process on a bundle (the same program {@code java scripts/CheckBundle.java DIR} runs from source).
 */
final class BundleCheck {

    private final Path classes;
    private final Map<String, String> keyEnvironment;

    private BundleCheck(Path classes, Map<String, String> keyEnvironment) {
        this.classes = classes;
        this.keyEnvironment = keyEnvironment;
    }

    static BundleCheck compile(Path source, Path classes, Map<String, String> keyEnvironment) throws Exception {
        Files.createDirectories(classes);
        int exit = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
                source.toString());
        if (exit != 0) {
            throw new IllegalStateException("javac " + source + " exited " + exit);
        }
        return new BundleCheck(classes, keyEnvironment);
    }

    Commands.Result run(Path bundle) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return Commands.attempt(bundle.getParent(), keyEnvironment,
                List.of(java, "-cp", classes.toString(), "CheckBundle", bundle.toString()));
    }
}
