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

    /**
     * The checked file and the location it lies in.
     *
     * @param finalNameOnly {@link FileDelivery#finalNameOnly}
     */
    Found resolve(boolean finalNameOnly);

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
