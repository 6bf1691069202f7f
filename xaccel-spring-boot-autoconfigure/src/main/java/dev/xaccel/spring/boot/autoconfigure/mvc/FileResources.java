package dev.xaccel.spring.boot.autoconfigure.mvc;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;

import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.PathResource;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.util.ResourceUtils;

import dev.xaccel.filter.XAccelFile;

/**
 * Which answers are files the filter can deliver. A {@link Resource} counts only when it names a file of the
 * file system by its type ({@link FileSystemResource}, {@link PathResource}, a {@link UrlResource} with a
 * {@code file:} URL): a {@code ClassPathResource} is left to Spring even when it lies in an exploded directory
 * (it is application code, not data), and so is every other kind ({@code ByteArrayResource}, servlet context
 * resources, ...).
 */
final class FileResources {

    private FileResources() {
    }

    /**
     * The file a resource names.
     *
     * @return its absolute path, or {@code null} when it is not a file-system resource
     */
    @SuppressWarnings("removal") // PathResource: deprecated in Spring 7, still what older code returns
    static Path pathOf(Resource resource) {
        boolean fileKind = resource instanceof FileSystemResource || resource instanceof PathResource
                || (resource instanceof UrlResource url && isFileUrl(url));
        if (!fileKind) {
            return null;
        }
        try {
            return resource.getFile().toPath().toAbsolutePath();
        } catch (IOException | UnsupportedOperationException | java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /**
     * The file an answer declares: a file-system {@link Resource}, a {@link Path}, a {@link File} or an
     * {@link XAccelFile}.
     *
     * @return the file, or {@code null} for any other value
     */
    static XAccelFile fileOf(Object value) {
        if (value instanceof XAccelFile file) {
            return file;
        }
        if (value instanceof Path path) {
            return XAccelFile.of(path.toAbsolutePath());
        }
        if (value instanceof File file) {
            return XAccelFile.of(file.toPath().toAbsolutePath());
        }
        if (value instanceof Resource resource) {
            Path path = pathOf(resource);
            return path == null ? null : XAccelFile.of(path);
        }
        return null;
    }

    /** Path, File and XAccelFile mean nothing to Spring MVC: they always go to the filter. */
    static boolean isFileType(Class<?> type) {
        return Path.class.isAssignableFrom(type) || File.class.isAssignableFrom(type)
                || XAccelFile.class.isAssignableFrom(type);
    }

    private static boolean isFileUrl(UrlResource url) {
        return ResourceUtils.isFileURL(url.getURL());
    }
}
