package dev.xaccel.filter.internal.fs;

/**
 * The outcome of checking a file and opening it in one pass ({@link SafePathResolver#open}): the checked file
 * and the open file, or the rejection (and no open file).
 *
 * @param resolution the checked file, or the rejection
 * @param file       the open file, {@code null} when rejected; the caller closes it
 */
public record Opening(Resolution resolution, OpenFile file) {

    static Opening opened(Resolution resolution, OpenFile file) {
        return new Opening(resolution, file);
    }

    public static Opening refused(Resolution rejection) {
        return new Opening(rejection, null);
    }

    /** Whether the file is open. */
    public boolean isOpen() {
        return file != null;
    }
}
