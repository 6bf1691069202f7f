package dev.xaccel.bench.run;

import java.util.Locale;

/**
 * One set of small files the small-file workload cycles through: {@code count} files of {@code bytes} each, either
 * at the top of the data root ({@code small-000.bin} ...: the main set, which every setup serves) or three
 * directories below it ({@code deep/<size>/files/file-000.bin} ...: what an application's tree looks like, where
 * a file-system walk per request costs more than at the top).
 *
 * @param size  the size as written in the report and in the set's id (e.g. {@code 8K})
 * @param bytes the size in bytes
 * @param deep  three directories below the root, not at its top
 * @param count files in the set
 */
public record FileSet(String size, long bytes, boolean deep, int count) {

    /** The directory of the deep sets below the data root; the sets' own directories are below it. */
    public static final String DEEP_ROOT = "deep";

    /** The set's id in workload names: "" for the top-level set (the historic {@code small-c8}), else "8K-deep". */
    public String id() {
        return deep ? size + "-deep" : "";
    }

    /** The path of file {@code i} relative to the data root, with '/' separators. */
    public String path(int i) {
        return String.format(Locale.ROOT, pattern(), i);
    }

    /** {@link #path}'s format with one {@code %03d} (files.lua formats it the same way). */
    public String pattern() {
        return deep ? DEEP_ROOT + "/" + size + "/files/file-%03d.bin" : "small-%03d.bin";
    }

    /** The directory of the files relative to the data root, with '/' separators ("" for the top). */
    public String directory() {
        return deep ? DEEP_ROOT + "/" + size + "/files" : "";
    }

    /** "8 KiB files three directories below the root" / "50 KiB files at the top of the root". */
    public String label() {
        return kib(bytes) + (deep ? " files three directories below the root" : " files at the top of the root");
    }

    private static String kib(long bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " bytes";
    }
}
