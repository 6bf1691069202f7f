package dev.xaccel.bench.run;

import java.util.Locale;

/**
 * One set of small files the small-file workload cycles through: {@code count} files of {@code bytes} each, laid out
 * one of four ways below the data root ({@link Layout}).
 *
 * @param size   the size as written in the report and in the set's id (e.g. {@code 8K})
 * @param bytes  the size in bytes
 * @param layout where the files lie
 * @param count  files in the set
 */
public record FileSet(String size, long bytes, Layout layout, int count) {

    /** Where a set's files lie below the data root. */
    public enum Layout {
        /** {@code small-000.bin} ...: the main set, which every setup serves. */
        TOP,
        /**
         * {@code deep/<size>/files/file-000.bin} ...: three directories below the root, all in one directory (a walk
         * per request costs more than at the top; one held directory serves every request).
         */
        DEEP,
        /**
         * {@code spread-<size>/Author000/Title00/chapter.bin} ...: as deep, but one file per directory, {@value
         * #TITLES} titles per author — the shape of an audiobook library, where thousands of directories compete for
         * whatever the server keeps per directory.
         */
        SPREAD,
        /**
         * {@code onedir-<size>/Author/Title/chapter-0000.bin} ...: a spread set's twin, the same number of files of
         * the same size at the same depth, all in one directory, so that spread ÷ one directory compares the layouts
         * alone (not 2,000 files against the 100 of a deep set, which a cache may hold where it cannot hold 2,000).
         */
        ONEDIR
    }

    /** The directory of the deep sets below the data root; the sets' own directories are below it. */
    public static final String DEEP_ROOT = "deep";
    /** The prefix of a spread set's directory below the data root ({@code spread-8K}). */
    public static final String SPREAD_ROOT = "spread-";
    /** The prefix of a one-directory twin's directory below the data root ({@code onedir-8K}). */
    public static final String ONEDIR_ROOT = "onedir-";
    /** Titles per author in a spread set: file i is author i / 10, title i % 10. */
    public static final int TITLES = 10;

    /** A set at the top ({@code deep} false) or three directories deep in one directory. */
    public FileSet(String size, long bytes, boolean deep, int count) {
        this(size, bytes, deep ? Layout.DEEP : Layout.TOP, count);
    }

    /** Below the top of the root (deep or spread). */
    public boolean deep() {
        return layout != Layout.TOP;
    }

    public boolean spread() {
        return layout == Layout.SPREAD;
    }

    /** A spread set's twin: as many files of its size, all in one directory at the same depth. */
    public boolean oneDirectory() {
        return layout == Layout.ONEDIR;
    }

    /** This spread set's one-directory twin ({@link Layout#ONEDIR}). */
    public FileSet oneDirectoryTwin() {
        if (!spread()) {
            throw new IllegalStateException("only a spread set has a one-directory twin: " + this);
        }
        return new FileSet(size, bytes, Layout.ONEDIR, count);
    }

    /** The set's id in workload names: "" for the top-level set (the historic {@code small-c8}), else "8K-deep". */
    public String id() {
        return switch (layout) {
            case TOP -> "";
            case DEEP -> size + "-deep";
            case SPREAD -> size + "-spread";
            case ONEDIR -> size + "-onedir";
        };
    }

    /** The path of file {@code i} relative to the data root, with '/' separators. */
    public String path(int i) {
        return spread() ? String.format(Locale.ROOT, pattern(), i / TITLES, i % TITLES)
                : String.format(Locale.ROOT, pattern(), i);
    }

    /**
     * {@link #path}'s format: one {@code %03d} (the file's number), or for a spread set two (author, title); files.lua
     * formats it the same way, given {@link #perDirectory()}.
     */
    public String pattern() {
        return switch (layout) {
            case TOP -> "small-%03d.bin";
            case DEEP -> DEEP_ROOT + "/" + size + "/files/file-%03d.bin";
            case SPREAD -> SPREAD_ROOT + size + "/Author%03d/Title%02d/chapter.bin";
            case ONEDIR -> ONEDIR_ROOT + size + "/Author/Title/chapter-%04d.bin";
        };
    }

    /** Titles per author for files.lua ({@link #TITLES}), 0 when the pattern takes the file's number alone. */
    public int perDirectory() {
        return spread() ? TITLES : 0;
    }

    /** The directory of the files relative to the data root, with '/' separators ("" for the top, the spread set's
     * own directory for a spread set). */
    public String directory() {
        return switch (layout) {
            case TOP -> "";
            case DEEP -> DEEP_ROOT + "/" + size + "/files";
            case SPREAD -> SPREAD_ROOT + size;
            case ONEDIR -> ONEDIR_ROOT + size + "/Author/Title";
        };
    }

    /** "8 KiB files three directories below the root" / "50 KiB files at the top of the root" / "... spread ...". */
    public String label() {
        return kib(bytes) + switch (layout) {
            case TOP -> " files at the top of the root";
            case DEEP -> " files three directories below the root";
            case SPREAD -> " files three directories below the root, one per directory in " + count
                    + " directories";
            case ONEDIR -> " files three directories below the root, all " + count + " in one directory";
        };
    }

    private static String kib(long bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
