package dev.xaccel.filter.internal.delivery;

import java.io.IOException;

import dev.xaccel.filter.internal.config.Location;
import dev.xaccel.filter.internal.fs.Opening;
import dev.xaccel.filter.internal.fs.Resolution;

/**
 * A request's file before it is checked, as mapped and declared mode name it: checked without being opened when
 * the front end may be given it ({@link #resolve}), or checked and opened in one pass when the filter sends it
 * ({@link #open}).
 */
public interface FileLookup {

    /** How much of a file about to be handed off is looked at on disk ({@link FileDelivery#check}, the one place). */
    enum Check {
        /** Every directory and the file: one {@code lstat} each, then {@code access}. */
        WALK,
        /** The file's own name only ({@code frontEndConfines}): the front end refuses links in the directories. */
        FINAL_NAME,
        /**
         * The names alone, no file-system call: nginx refuses every link when it opens the file and decides
         * everything else the walk would, and the request asks nothing of the file's validators or size. A lookup
         * may still look (declared mode does its final-name check); the answer is the whole file either way.
         */
        NAMES
    }

    /**
     * The checked file and the location it lies in.
     *
     * @param check {@link FileDelivery#check}
     */
    Found resolve(Check check);

    /** The checked file, open, or its rejection. */
    Opening open() throws IOException;

    /**
     * A checked file and where it lies.
     *
     * @param file     the checked file below the location's real root (or outside every root), or the rejection
     * @param location the location containing the file, {@code null} outside every location
     */
    record Found(Resolution file, Location location) {
    }
}
