package dev.xaccel.bench.report;

import java.util.Optional;

import dev.xaccel.bench.run.Setup;
import dev.xaccel.bench.run.SmallCase;

/**
 * Libraries as they are (issue 34): each spread set (one file per directory in thousands of directories) against
 * its one-directory twin (the same number of files of its size at the same depth, all in one directory, so that a
 * cache that holds 100 files but not 2,000 does not decide the ratio), setup by setup, measured in the same rounds:
 * requests/s and the servers' CPU per request of both, and spread ÷ one-directory CPU per request taken round by
 * round, judged against
 * {@value #LIMIT}× (the per-request cost of a real library's layout within 10 % of the one-directory layout's) by
 * {@link Verdict#atMost}.
 */
final class SpreadSection {

    /** The target of issue 34: spread ÷ one-directory server CPU per request at most this. */
    static final double LIMIT = 1.10;

    private SpreadSection() {
    }

    static String markdown(Measurements data) {
        StringBuilder rows = new StringBuilder();
        for (String w : data.workloads(SmallCase.PREFIX)) {
            Optional<SmallCase.Id> id = SmallCase.parse(w);
            if (id.isEmpty() || !id.get().spread()) {
                continue;
            }
            String size = id.get().deepSize().orElseThrow();
            String twin = SmallCase.PREFIX + size + "-onedir-c" + id.get().concurrency();
            for (Setup s : data.setupsIn(w)) {
                if (!data.setupsIn(twin).contains(s)) {
                    // DefaultServlet: measured spread for direct ÷ DefaultServlet, without a twin
                    continue;
                }
                RoundRatios cpu = RoundRatios.of(data.byRound(w, s.id(), HeadlineRatios.SERVER_CPU),
                        data.byRound(twin, s.id(), HeadlineRatios.SERVER_CPU));
                rows.append("| ").append(size).append(", c=").append(id.get().concurrency()).append(" | ")
                        .append(s.label()).append(" | ").append(data.cell(w, s.id(), "rps", 0)).append(" | ")
                        .append(data.cell(twin, s.id(), "rps", 0)).append(" | ")
                        .append(data.cell(w, s.id(), HeadlineRatios.SERVER_CPU, 1)).append(" | ")
                        .append(data.cell(twin, s.id(), HeadlineRatios.SERVER_CPU, 1)).append(" | ")
                        .append(cpu.cell()).append(" | ≤ ").append(Stats.fmt(LIMIT, 2)).append("×: ")
                        .append(Verdict.textAtMost(cpu, LIMIT)).append(" |\n");
            }
        }
        if (rows.length() == 0) {
            return "";
        }
        return "### Spread over thousands of directories ÷ one directory (issue 34)\n\n"
                + "`spread-SIZE/AuthorNNN/TitleNN/chapter.bin` (one file per directory, the shape of an audiobook "
                + "library) against `onedir-SIZE/Author/Title/chapter-NNNN.bin` (the same number of files, all in one "
                + "directory), both three directories below the root, measured in the same rounds. Server CPU = JVM "
                + "+ nginx, µs per request; the ratio is spread ÷ one directory, round by round (≥ 1× means the "
                + "spread layout costs "
                + "more), met when the median's interval (as in the headline ratios) stays within "
                + Stats.fmt(LIMIT, 2) + "×, missed when it lies above, undecided otherwise.\n\n"
                + "| set | setup | spread req/s | one-directory req/s | spread CPU µs/req | one-directory CPU µs/req "
                + "| spread ÷ one directory, CPU | target: verdict |\n|---|---|---:|---:|---:|---:|---:|---|\n"
                + rows + "\n";
    }
}
