package dev.xaccel.bench.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.xaccel.bench.run.BenchFailure;
import dev.xaccel.bench.run.FileSet;
import dev.xaccel.bench.run.Log;
import dev.xaccel.bench.system.Processes;

/**
 * Runs wrk with the Lua script {@code files.lua}, which cycles through the small files (or a list of URLs) and
 * prints one {@code BENCH ...} line; every request carries the bearer token. Threads: 1 below concurrency 2, else
 * 2. Everything wrk prints is appended to {@code wrk.log}.
 */
public final class Wrk {

    /** The numbers of the {@code BENCH} line. */
    public record Result(long requests, long durationUs, long socketErrors, long statusErrors, long p50Us, long p99Us) {

        private static final Pattern LINE = Pattern.compile("(?m)^BENCH .*$");

        public double requestsPerSecond() {
            return requests / (durationUs / 1e6);
        }

        static Optional<Result> parse(String output) {
            Matcher m = LINE.matcher(output);
            if (!m.find()) {
                return Optional.empty();
            }
            String line = m.group();
            return Optional.of(new Result(field(line, "requests"), field(line, "duration_us"),
                    field(line, "socket_errors"), field(line, "status_errors"), field(line, "p50_us"),
                    field(line, "p99_us")));
        }

        private static long field(String line, String name) {
            Matcher m = Pattern.compile("\\s" + name + "=([0-9]+)").matcher(line);
            if (!m.find()) {
                throw new BenchFailure("wrk's result line lacks " + name + ": " + line);
            }
            return Long.parseLong(m.group(1));
        }
    }

    private final Processes processes;
    private final Path script;
    private final Path log;
    private final String token;
    private final FileSet files;

    /** @param files the set of {@link #run(String, int, int, Optional)} (the small files at the top of the root) */
    public Wrk(Processes processes, Path work, String token, FileSet files) {
        this.processes = processes;
        this.script = work.resolve("files.lua");
        this.log = work.resolve("wrk.log");
        this.token = token;
        this.files = files;
        try (InputStream in = Wrk.class.getResourceAsStream("files.lua")) {
            Files.write(script, in.readAllBytes());
        } catch (IOException | NullPointerException e) {
            throw new BenchFailure("cannot write the wrk script " + script + ": " + e);
        }
    }

    /**
     * One run against {@code base} ({@code http://host:port/prefix}): the files {@code prefix/small-NNN.bin},
     * or the paths listed in {@code urls}.
     */
    public Result run(String base, int concurrency, int seconds, Optional<Path> urls) {
        return run(base, files, concurrency, seconds, urls);
    }

    /** One run against {@code base} cycling through the files {@code prefix/<set's path>}, or {@code urls}. */
    public Result run(String base, FileSet set, int concurrency, int seconds, Optional<Path> urls) {
        String rest = base.substring("http://".length());
        int slash = rest.indexOf('/');
        String hostPort = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash);
        int threads = concurrency < 2 ? 1 : 2;
        Processes.Result r = processes.run(List.of("wrk", "-t" + threads, "-c" + concurrency, "-d" + seconds + "s",
                "--timeout", "10s", "-H", "Authorization: Bearer " + token, "-s", script.toString(),
                "http://" + hostPort + "/"), Map.of("BENCH_PREFIX", prefix, "BENCH_PATTERN", "/" + set.pattern(),
                "BENCH_FILES", Integer.toString(set.count()), "BENCH_PER", Integer.toString(set.perDirectory()),
                "BENCH_URLS", urls.map(Path::toString).orElse("")));
        if (!r.ok()) {
            Log.raw(r.output());
            throw new BenchFailure("wrk failed against " + base);
        }
        appendLog(r.output());
        return Result.parse(r.output()).orElseThrow(() -> {
            Log.raw(r.output());
            return new BenchFailure("wrk printed no result against " + base);
        });
    }

    private void appendLog(String output) {
        try {
            Files.writeString(log, output, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
