package dev.xaccel.it.release;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Runs a command to its end, its output in a log file beside its working directory's. */
final class Commands {

    /** What a command printed and how it ended. */
    record Result(int exitCode, String output) {
    }

    private Commands() {
    }

    /** Runs {@code command} in {@code dir}; fails with its output unless it exits 0. */
    static String run(Path dir, Map<String, String> env, List<String> command) throws IOException,
            InterruptedException {
        Result result = attempt(dir, env, command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + result.exitCode() + ":\n"
                    + tail(result.output()));
        }
        return result.output();
    }

    /** Runs {@code command} in {@code dir} and returns how it ended. */
    static Result attempt(Path dir, Map<String, String> env, List<String> command) throws IOException,
            InterruptedException {
        Path log = Files.createTempFile(dir.getParent(), "command-", ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        builder.environment().putAll(env);
        int exit = builder.start().waitFor();
        return new Result(exit, Files.readString(log));
    }

    private static String tail(String output) {
        List<String> lines = output.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }
}
