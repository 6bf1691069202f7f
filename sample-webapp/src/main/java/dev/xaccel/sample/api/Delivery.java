package dev.xaccel.sample.api;

import dev.xaccel.filter.XAccel;
import dev.xaccel.filter.XAccelFile;
import dev.xaccel.filter.XAccelRemote;
import dev.xaccel.sample.DirectoryLibrary;
import dev.xaccel.sample.Library;
import dev.xaccel.sample.S3Library;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Hands a file of the library to the xaccel filter, after the resource authorized the request (the auth filter did):
 * <ul>
 * <li>a library on disk: an {@link XAccelFile} the resource returns (the JAX-RS way: the filter's feature takes it
 * over, nginx sends it from {@code /_xaccel/library/});</li>
 * <li>a library in S3: a GET presigned for seconds, declared with {@link XAccel#sendRemote}; the resource returns
 * null (the filter answers: behind nginx {@code X-Accel-Redirect: /_xaccel/remote/…} and nginx fetches the object
 * from the store, otherwise the filter streams it).</li>
 * </ul>
 */
final class Delivery {

    private Delivery() {
    }

    /**
     * @param type         the content type, or null for the container's mime mapping of the name
     * @param downloadName the attachment's name, or null for inline
     * @param tag          the receipt's tag ({@link dev.xaccel.sample.DeliveryTally#chapterTag}), or null
     * @return the entity to return, or null when the remote object was declared already
     */
    static XAccelFile of(Library library, Library.Entry entry, String type, String downloadName,
                         String tag, HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (library instanceof S3Library s3) {
            XAccelRemote remote = XAccelRemote.of(s3.presignGet(entry)).contentType(type).tag(tag);
            if (downloadName != null) {
                remote = remote.downloadName(downloadName).attachment();
            }
            XAccel.sendRemote(request, response, remote);
            return null;
        }
        // X-Accel-Expires 0: the filter's location has expires=60 for the covers nginx caches by their /library/
        // URL; the API's answers are never cached, and only an answer nginx cannot cache carries a receipt
        XAccelFile file = XAccelFile.of(((DirectoryLibrary) library).file(entry)).contentType(type).tag(tag)
                .accelExpires("0");
        return downloadName == null ? file : file.downloadName(downloadName).attachment();
    }
}
