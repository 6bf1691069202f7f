package dev.xaccel.it.consumer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * docs/deploy-your-war.md, read the way the tests follow it: a fenced block is found by the HTML comment on the line
 * before it ({@code <!-- ConsumerWarIT: nginx -->}), so the tests run and compare exactly what the page shows.
 */
final class DeployDoc {

    static final String PATH = "docs/deploy-your-war.md";

    private final List<String> lines;

    private DeployDoc(List<String> lines) {
        this.lines = lines;
    }

    static DeployDoc read(Path repositoryRoot) throws IOException {
        return new DeployDoc(Files.readAllLines(repositoryRoot.resolve(PATH), StandardCharsets.UTF_8));
    }

    /** The text of the fenced block right after {@code <!-- marker -->}, each line ending with a newline. */
    String block(String marker) {
        String comment = "<!-- " + marker + " -->";
        int at = lines.indexOf(comment);
        if (at < 0 || at + 1 >= lines.size() || !lines.get(at + 1).startsWith("```")) {
            throw new IllegalStateException(PATH + " has no fenced block right after " + comment);
        }
        StringBuilder text = new StringBuilder();
        for (int i = at + 2; i < lines.size(); i++) {
            if (lines.get(i).equals("```")) {
                return text.toString();
            }
            text.append(lines.get(i)).append('\n');
        }
        throw new IllegalStateException(PATH + ": the block after " + comment + " is not closed");
    }
}
