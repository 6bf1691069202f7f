package dev.xaccel.bench.run;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The values of benchmarks/run's options, each checked: a bad one is a {@link UsageException} naming the option. */
final class OptionValues {

    private OptionValues() {
    }

    static final Pattern SIZE = Pattern.compile("([0-9]+)([KkMmGg]?)");

    /** {@code 50K}, {@code 256M}, {@code 1G} (KiB, MiB, GiB) or plain bytes. */
    static long bytes(String option, String value) throws UsageException {
        Matcher m = SIZE.matcher(value);
        if (!m.matches()) {
            throw new UsageException(option + ": expected a size like 256M or 1G, got '" + value + "'");
        }
        long shift = switch (Character.toUpperCase(m.group(2).isEmpty() ? 'B' : m.group(2).charAt(0))) {
            case 'K' -> 10;
            case 'M' -> 20;
            case 'G' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": size out of range, got '" + value + "'");
        }
    }

    static long seed(String option, String value) throws UsageException {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": expected an integer (a seed printed by an earlier run), got '"
                    + value + "'");
        }
    }

    /** Sizes like {@code 8K 512K}, each checked; none: no deep set. */
    static List<String> sizes(String option, String value) throws UsageException {
        List<String> l = new ArrayList<>();
        for (String w : items(value)) {
            bytes(option, w);
            if (!l.contains(w)) {
                l.add(w);
            }
        }
        return l;
    }

    static int positive(String option, String value) throws UsageException {
        int n = integer(option, value, value);
        if (n < 1) {
            throw new UsageException(option + ": expected a positive integer, got '" + value + "'");
        }
        return n;
    }

    /** An integer of at least {@code min}. */
    static int atLeast(String option, String value, int min) throws UsageException {
        int n = integer(option, value, value);
        if (n < min) {
            throw new UsageException(option + ": expected an integer of at least " + min + ", got '" + value + "'");
        }
        return n;
    }

    static int count(String option, String part, String value) throws UsageException {
        int n = integer(option, part, value);
        if (n < 0) {
            throw new UsageException(option + ": expected counts of 0 or more, got '" + value + "'");
        }
        return n;
    }

    static int integer(String option, String text, String value) throws UsageException {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": expected an integer, got '" + value + "'");
        }
    }

    static List<Integer> positives(String option, String value) throws UsageException {
        List<Integer> l = new ArrayList<>();
        for (String w : items(value)) {
            try {
                l.add(positive(option, w));
            } catch (UsageException e) {
                throw new UsageException(option + ": expected positive integers, got '" + w + "' in '" + value + "'");
            }
        }
        if (l.isEmpty()) {
            throw new UsageException(option + ": expected a list like \"1 8 64\", got '" + value + "'");
        }
        return l;
    }

    static Set<WorkloadKind> workloads(String option, String value) throws UsageException {
        Set<WorkloadKind> s = EnumSet.noneOf(WorkloadKind.class);
        for (String w : items(value)) {
            s.add(WorkloadKind.byId(w).orElseThrow(() -> new UsageException(option + ": unknown workload '" + w
                    + "' in '" + value + "' (known: large, small, accept, threads, jmh)")));
        }
        if (s.isEmpty()) {
            throw new UsageException(option + ": expected workloads like large,small, got '" + value + "'");
        }
        return s;
    }

    static List<Setup> setups(String option, String value) throws UsageException {
        List<Setup> l = new ArrayList<>();
        for (String w : items(value)) {
            Setup s = Setup.byId(w).orElseThrow(() -> new UsageException(option + ": unknown setup '" + w + "' in '"
                    + value + "' (known: " + BenchOptions.setupIds() + ")"));
            if (!l.contains(s)) {
                l.add(s);
            }
        }
        if (l.isEmpty()) {
            throw new UsageException(option + ": expected setups like \"xaccel static\", got '" + value + "'");
        }
        return l;
    }

    /** Items separated by blanks or commas. */
    static List<String> items(String value) {
        return Arrays.stream(value.split("[\\s,]+")).filter(w -> !w.isEmpty()).toList();
    }

    static List<String> words(String value) {
        return Arrays.stream(value.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }
}
