package dev.xaccel.filter;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * Resolves untrusted request paths and app-declared files inside one root directory, fail closed.
 *
 * <p>Rules for {@link #resolve(String)} (the path comes from the container, already percent-decoded once; it
 * is never decoded again, so {@code %2e%2e} stays a literal file name):
 * <ul>
 * <li>400: control characters ({@code < 0x20}, {@code 0x7f}), a backslash, lone surrogates, or U+FFFD (the
 * container's replacement for undecodable bytes: serving it could name a different file than the client
 * meant).</li>
 * <li>404: {@code null}/empty path, a leading {@code /} (absolute), empty segments ({@code a//b} and a
 * trailing {@code /} are rejected, never normalized), segments made only of dots ({@code .}, {@code ..},
 * {@code ...}), a drive letter ({@code C:}) as first segment, hidden segments (leading {@code .}) unless
 * allowed, directories, missing or non-regular or unreadable files, symbolic links whose real target leaves
 * the root (policy {@link SymlinkPolicy#WITHIN_ROOT}) and any symbolic link below the root (policy
 * {@link SymlinkPolicy#NEVER}). On Windows additionally {@code :} anywhere and segments ending in a dot or a
 * blank.</li>
 * </ul>
 * A {@code ;} is an ordinary file-name character here: the container has already removed path parameters.
 * The hidden rule is applied to the requested names and again to the real path relative to the root, so a
 * link cannot expose a hidden file either. Containment is decided on real paths with
 * {@link Path#startsWith(Path)}, never on string prefixes.
 *
 * <p>Instances are immutable and thread-safe.
 */
final class SafePathResolver {

    private static final boolean WINDOWS = File.separatorChar == '\\';

    private final Path root;
    private final boolean allowHidden;
    private final SymlinkPolicy policy;

    /**
     * @param root        an existing directory; it is made real once here
     * @param allowHidden whether segments starting with {@code .} are allowed
     * @param policy      the symbolic link policy
     * @throws IOException              if the root does not exist or cannot be resolved
     * @throws IllegalArgumentException if the root is not a directory
     */
    SafePathResolver(Path root, boolean allowHidden, SymlinkPolicy policy) throws IOException {
        Objects.requireNonNull(root, "root");
        this.policy = Objects.requireNonNull(policy, "policy");
        Path real = root.toAbsolutePath().toRealPath();
        if (!Files.isDirectory(real)) {
            throw new IllegalArgumentException(Messages.get("resolver.rootNotDirectory", root));
        }
        this.root = real;
        this.allowHidden = allowHidden;
    }

    /** The real root directory. */
    Path root() {
        return root;
    }

    /**
     * Resolves a request path (the part after the mapped URL prefix) inside the root.
     *
     * @param requestPath decoded once by the container, not decoded again here
     * @return ok with the real file and its path relative to the real root, or the rejection
     */
    Resolution resolve(String requestPath) {
        if (requestPath == null || requestPath.isEmpty()) {
            return Resolution.rejected(404, "empty path");
        }
        String bad = checkCharacters(requestPath);
        if (bad != null) {
            return Resolution.rejected(400, bad);
        }
        if (requestPath.charAt(0) == '/') {
            return Resolution.rejected(404, "absolute path");
        }
        String[] segments = requestPath.split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            String reason = checkSegment(segments[i], i == 0);
            if (reason != null) {
                return Resolution.rejected(404, reason);
            }
        }
        Path candidate = root;
        try {
            for (String segment : segments) {
                candidate = candidate.resolve(segment);
                if (policy == SymlinkPolicy.NEVER) {
                    BasicFileAttributes attrs = Files.readAttributes(candidate, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS);
                    if (attrs.isSymbolicLink()) {
                        return Resolution.rejected(404, "symbolic link");
                    }
                }
            }
        } catch (InvalidPathException e) {
            return Resolution.rejected(400, "invalid path");
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        return finish(candidate);
    }

    /**
     * Checks a file handed over by the application.
     *
     * @param file an absolute path
     * @return ok with the real file and its path relative to the real root; rejected with 500 when the path is
     *         not absolute or the file lies outside the root, 404 when it is missing, not a readable regular
     *         file, hidden, reached through a forbidden symbolic link, or contains {@code .}/{@code ..}
     *         segments (those usually come from untrusted input the application joined to a root)
     */
    Resolution resolveDeclared(Path file) {
        if (file == null) {
            return Resolution.rejected(500, "no file");
        }
        if (!file.isAbsolute()) {
            return Resolution.rejected(500, "not absolute");
        }
        String bad = checkNames(file, true);
        if (bad != null) {
            return Resolution.rejected(404, bad);
        }
        Path real;
        try {
            real = file.toRealPath();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        if (!real.startsWith(root) || real.equals(root)) {
            return Resolution.rejected(500, "outside root");
        }
        // Find the part of the declared path below the root (the prefix whose real path is the root).
        int count = file.getNameCount();
        int below = -1;
        Path prefix = file.getRoot();
        for (int i = 0; i <= count; i++) {
            if (i > 0) {
                prefix = prefix.resolve(file.getName(i - 1));
            }
            if (isRoot(prefix)) {
                below = i;
                break;
            }
        }
        if (below >= 0) {
            Path walk = root;
            for (int i = below; i < count; i++) {
                String n = file.getName(i).toString();
                if (!allowHidden && n.startsWith(".")) {
                    return Resolution.rejected(404, "hidden segment");
                }
                walk = walk.resolve(n);
                if (policy == SymlinkPolicy.NEVER) {
                    try {
                        if (Files.readAttributes(walk, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                                .isSymbolicLink()) {
                            return Resolution.rejected(404, "symbolic link");
                        }
                    } catch (IOException e) {
                        return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
                    }
                }
            }
        } else if (policy == SymlinkPolicy.NEVER) {
            // The declared path reaches the root only through a link from outside.
            return Resolution.rejected(404, "symbolic link");
        }
        return finish(real);
    }

    /**
     * Checks the names of a declared path, whatever location (if any) contains it: {@code .}/{@code ..} segments
     * (they usually come from untrusted input the application joined to a root) and, unless allowed, hidden
     * names (leading {@code .}).
     *
     * @return the reason when the path must not be served, {@code null} otherwise
     */
    static String checkNames(Path file, boolean allowHidden) {
        for (Path name : file) {
            String n = name.toString();
            if (PathRules.isDotSegment(n)) {
                return "dot segment";
            }
            if (!allowHidden && n.startsWith(".")) {
                return "hidden segment";
            }
        }
        return null;
    }

    /**
     * Whether a real path is the root or lies below it. Paths with {@code .}/{@code ..} segments or relative
     * paths are never contained.
     */
    boolean contains(Path realPath) {
        return realPath != null && realPath.isAbsolute() && realPath.equals(realPath.normalize())
                && realPath.startsWith(root);
    }

    /**
     * The file of {@code r} (resolved below a root inside this one, e.g. a mapping's) expressed relative to this
     * resolver's root.
     */
    Resolution rebase(Resolution r) {
        if (r.root().equals(root)) {
            return r;
        }
        return Resolution.ok(root, r.file(), slashSeparated(root.relativize(r.file())));
    }

    private static String slashSeparated(Path relative) {
        StringBuilder rel = new StringBuilder();
        for (Path name : relative) {
            if (rel.length() > 0) {
                rel.append('/');
            }
            rel.append(name);
        }
        return rel.toString();
    }

    private boolean isRoot(Path prefix) {
        if (prefix.equals(root)) {
            return true;
        }
        try {
            return Files.isSameFile(prefix, root) && prefix.toRealPath().equals(root);
        } catch (IOException e) {
            return false;
        }
    }

    /** Common tail: real path, containment, hidden rule on the real relative path, regular, readable. */
    private Resolution finish(Path candidate) {
        Path real;
        BasicFileAttributes attrs;
        try {
            real = candidate.toRealPath();
            attrs = Files.readAttributes(real, BasicFileAttributes.class);
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        if (!real.startsWith(root) || real.equals(root)) {
            return Resolution.rejected(404, "symbolic link leaves root");
        }
        Path relative = root.relativize(real);
        for (Path name : relative) {
            if (!allowHidden && name.toString().startsWith(".")) {
                return Resolution.rejected(404, "hidden target");
            }
        }
        if (!attrs.isRegularFile()) {
            return Resolution.rejected(404, attrs.isDirectory() ? "directory" : "not a regular file");
        }
        if (!Files.isReadable(real)) {
            return Resolution.rejected(404, "not readable");
        }
        return Resolution.ok(root, real, slashSeparated(relative));
    }

    /** @return a reason when the string contains characters that make it a bad request */
    private static String checkCharacters(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (PathRules.isControl(c)) {
                return "control character";
            }
            if (c == '\\') {
                return "backslash";
            }
            if (c == '\ufffd') {
                return "replacement character";
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return "malformed surrogate";
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return "malformed surrogate";
            }
        }
        return null;
    }

    /** @return a reason when the segment must not be served */
    private String checkSegment(String segment, boolean first) {
        if (segment.isEmpty()) {
            return "empty segment";
        }
        if (PathRules.isDotSegment(segment)) {
            return "dot segment";
        }
        if (!allowHidden && segment.charAt(0) == '.') {
            return "hidden segment";
        }
        if (first && segment.length() >= 2 && segment.charAt(1) == ':' && isAsciiLetter(segment.charAt(0))) {
            return "drive letter";
        }
        if (WINDOWS) {
            char last = segment.charAt(segment.length() - 1);
            if (segment.indexOf(':') >= 0 || last == '.' || last == ' ') {
                return "windows name";
            }
        }
        return null;
    }

    private static boolean isAsciiLetter(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    }

    @Override
    public String toString() {
        return "SafePathResolver[" + root + ", hidden=" + allowHidden + ", symlinks=" + policy + "]";
    }
}
