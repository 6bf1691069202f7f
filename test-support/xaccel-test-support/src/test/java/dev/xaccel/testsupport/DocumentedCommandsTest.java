package dev.xaccel.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every command line README.md, docs/*.md and benchmarks/README.md give to run — the project's own commands
 * ({@code ./demo}, {@code ./demo-spring}, {@code benchmarks/run}, {@code benchmarks/sample-check}), in code blocks
 * and in inline code — is covered by a line of {@code scripts/smoke}, which README's test command runs: the same
 * command with at least the same options and environment variables (the smoke line may add options that shorten
 * it, and values may differ, except for {@code --only} and {@code --setups}, which choose what runs: the smoke
 * line's list holds the documented one's). A command the docs gain without a smoke line fails here, so none can rot
 * unnoticed again (issue 33: {@code benchmarks/run --reliability} had, when its template gained a placeholder).
 * The docs' {@code mvn} lines are {@code mvn -B verify} itself or run inside it (the release steps:
 * {@code it/xaccel-it-release}); the FreeBSD self-test needs a FreeBSD kernel (docs/connector.md says so).
 */
class DocumentedCommandsTest {

    private static final Set<String> PROGRAMS = Set.of("./demo", "./demo-spring", "benchmarks/run",
            "benchmarks/sample-check");
    /** Options whose value chooses what runs: the smoke line must have the same value. */
    private static final Set<String> CHOOSING = Set.of("--only", "--setups");
    private static final Pattern FENCE = Pattern.compile("(?s)```[a-z]*\\n(.*?)```");
    private static final Pattern INLINE = Pattern.compile("`([^`]+)`");
    /** A word of a command line; a double-quoted one is one word. */
    private static final Pattern TOKEN = Pattern.compile("\"[^\"]*\"|\\S+");
    private static final Pattern ENV = Pattern.compile("[A-Z][A-Z0-9_]*=.*");

    /**
     * A command: the program, its environment variables' names ({@code NAME=}), its options, and for each choosing
     * option one word per item of its list ({@code --only small,jmh}: {@code --only small}, {@code --only jmh}).
     */
    record Command(String program, Set<String> words, String source) {

        boolean coveredBy(Command smoke) {
            return program.equals(smoke.program) && smoke.words.containsAll(words);
        }

        /** The command in {@code text} (a code block's line or an inline span), or null when it names none. */
        static Command parse(String text, String source) {
            String line = text.replaceAll("\\s#.*", "").replace("[", " ").replace("]", " ").trim();
            for (String part : line.split("&&|\\|\\||;|\\|")) {
                List<String> tokens = new ArrayList<>();
                Matcher token = TOKEN.matcher(part);
                while (token.find()) {
                    tokens.add(token.group().replace("\"", ""));
                }
                tokens.remove("$");
                Set<String> words = new LinkedHashSet<>();
                while (!tokens.isEmpty() && ENV.matcher(tokens.get(0)).matches()) {
                    words.add(tokens.remove(0).replaceAll("=.*", "="));
                }
                if (tokens.isEmpty() || !PROGRAMS.contains(tokens.get(0))) {
                    continue;
                }
                for (int i = 1; i < tokens.size(); i++) {
                    String t = tokens.get(i);
                    if (CHOOSING.contains(t) && i + 1 < tokens.size()) {
                        for (String item : tokens.get(++i).split("[,\\s]+")) {
                            words.add(t + " " + item);
                        }
                    } else if (t.startsWith("--")) {
                        words.add(t);
                    }
                }
                return new Command(tokens.get(0), words, source);
            }
            return null;
        }
    }

    static List<Command> documented() throws IOException {
        Path root = TestPaths.repositoryFile("README.md").getParent();
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("benchmarks/README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        List<Command> commands = new ArrayList<>();
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            String name = root.relativize(file).toString();
            Matcher block = FENCE.matcher(text);
            StringBuilder prose = new StringBuilder();
            int end = 0;
            while (block.find()) {
                prose.append(text, end, block.start());
                end = block.end();
                for (String line : block.group(1).split("\\n")) {
                    add(commands, line, name);
                }
            }
            prose.append(text.substring(end));
            Matcher span = INLINE.matcher(prose);
            while (span.find()) {
                add(commands, span.group(1).replace('\n', ' '), name);
            }
        }
        return commands;
    }

    private static void add(List<Command> commands, String text, String source) {
        Command c = Command.parse(text, source);
        if (c != null) {
            commands.add(c);
        }
    }

    static List<Command> smoke() throws IOException {
        List<Command> commands = new ArrayList<>();
        String script = Files.readString(TestPaths.repositoryFile("scripts/smoke"), StandardCharsets.UTF_8);
        for (String line : script.replace("\\\n", " ").split("\n")) {
            Matcher m = Pattern.compile("^(?:run|serve) (.*)").matcher(line);
            if (m.matches()) {
                add(commands, m.group(1), "scripts/smoke");
            }
        }
        return commands;
    }

    @Test
    void everyDocumentedCommandHasASmokeRun() throws IOException {
        List<Command> smoke = smoke();
        Set<String> uncovered = new TreeSet<>();
        for (Command doc : documented()) {
            if (smoke.stream().noneMatch(doc::coveredBy)) {
                uncovered.add(doc.source() + ": " + doc.program() + " " + String.join(" ", doc.words()));
            }
        }
        assertEquals(Set.of(), uncovered, "documented commands no line of scripts/smoke runs");
    }

    @Test
    void theDocsGiveTheCommandsTheIssueNamed() throws IOException {
        Set<String> seen = new TreeSet<>();
        documented().forEach(c -> seen.add(c.program() + " " + String.join(" ", c.words())));
        for (String expected : List.of("./demo ", "./demo-spring ", "benchmarks/run --quick",
                "benchmarks/run --reliability", "benchmarks/run --only jmh",
                "benchmarks/run --only small --setups xaccel", "benchmarks/sample-check ")) {
            assertTrue(seen.stream().anyMatch(s -> s.startsWith(expected)), expected + " in " + seen);
        }
    }

    @Test
    void parsesTheShapesTheDocsUse() {
        Command c = Command.parse("mvn -B verify && benchmarks/run --quick         # every test", "x");
        assertEquals(new Command("benchmarks/run", Set.of("--quick"), "x"), c);
        c = Command.parse("benchmarks/run --reliability [--seconds 60] [--out docs/reliability.md]", "x");
        assertEquals(Set.of("--reliability", "--seconds", "--out"), c.words());
        c = Command.parse("XACCEL_LIBRARY=s3://demo/audiobooks ./demo", "x");
        assertEquals(new Command("./demo", Set.of("XACCEL_LIBRARY="), "x"), c);
        c = Command.parse("benchmarks/run --only small --setups xaccel", "x");
        assertEquals(Set.of("--only small", "--setups xaccel"), c.words());
        assertFalse(c.coveredBy(Command.parse("benchmarks/run --quick --only large --setups xaccel", "y")));
        assertTrue(c.coveredBy(Command.parse("benchmarks/run --quick --only small,jmh --setups xaccel", "y")));
        c = Command.parse("benchmarks/run --size 256M --only large,small --setups \"xaccel static\" --seq 2", "x");
        assertEquals(Set.of("--size", "--only large", "--only small", "--setups xaccel", "--setups static", "--seq"),
                c.words());
        assertEquals(null, Command.parse("mvn -B verify", "x"));
    }
}
