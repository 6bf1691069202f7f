package dev.xaccel.filter.internal.fs;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import dev.xaccel.filter.InitParams;
import dev.xaccel.filter.SymlinkPolicy;
import dev.xaccel.filter.internal.util.Messages;
import dev.xaccel.filter.internal.util.PathRules;

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
 * <p>How: the root is made real once. Below it the path is walked segment by segment without following links
 * (one {@code lstat} per segment, then one {@code access}): a path without a link is its own real path. Only
 * when a link is met is the whole path resolved ({@link Path#toRealPath}) and judged by the policy. With
 * {@code finalNameOnly} (init-param {@code frontEndConfines}, offloaded requests only) just the last segment is
 * checked: the front end refuses links at open time, and the direct path's {@link ConfinedOpener} does too. On
 * Windows and macOS, whose file systems are usually case-insensitive (a real path may be spelled differently
 * from the request), every path is resolved with {@link Path#toRealPath}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class SafePathResolver {

    /** The option array of every {@code lstat}, shared: a varargs call would allocate one per call. */
    private static final LinkOption[] NO_FOLLOW = {LinkOption.NOFOLLOW_LINKS};

    private static final boolean WINDOWS = File.separatorChar == '\\';
    /** Whether link-free paths may be taken as real paths (case-sensitive file systems by default). */
    private static final boolean WALK = !WINDOWS
            && !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("mac");

    private final Path root;
    private final RootDirectory directory;
    private final boolean allowHidden;
    private final SymlinkPolicy policy;
    /** Small files' bytes for the one-pass open, validated on every hit; {@code null}: none kept. */
    private final SmallFileCache smallFiles;

    /**
     * @param root        an existing directory; it is made real once here
     * @param allowHidden whether segments starting with {@code .} are allowed
     * @param policy      the symbolic link policy
     * @throws IOException              if the root does not exist or cannot be resolved
     * @throws IllegalArgumentException if the root is not a directory
     */
    public SafePathResolver(Path root, boolean allowHidden, SymlinkPolicy policy) throws IOException {
        this(root, allowHidden, policy, InitParams.DEFAULT_HELD_DIRECTORIES, null);
    }

    /**
     * @param root            an existing directory; it is made real once here
     * @param allowHidden     whether segments starting with {@code .} are allowed
     * @param policy          the symbolic link policy
     * @param heldDirectories the most directories below the root held open ({@link RootDirectory}); 0: none
     * @param smallFiles      small files' bytes kept for {@link #open}, shared by a filter's resolvers;
     *                        {@code null}: none
     * @throws IOException              if the root does not exist or cannot be resolved
     * @throws IllegalArgumentException if the root is not a directory
     */
    public SafePathResolver(Path root, boolean allowHidden, SymlinkPolicy policy, int heldDirectories,
            SmallFileCache smallFiles) throws IOException {
        Objects.requireNonNull(root, "root");
        this.policy = Objects.requireNonNull(policy, "policy");
        Path real = root.toAbsolutePath().toRealPath();
        if (!Files.isDirectory(real)) {
            throw new IllegalArgumentException(Messages.get("resolver.rootNotDirectory", root));
        }
        this.root = real;
        this.directory = new RootDirectory(real, heldDirectories);
        this.allowHidden = allowHidden;
        this.smallFiles = smallFiles;
    }

    /** The real root directory. */
    public Path root() {
        return root;
    }

    /** The real root directory, held open for the one-pass opens below it. */
    public RootDirectory directory() {
        return directory;
    }

    /**
     * Resolves a request path (the part after the mapped URL prefix) inside the root.
     *
     * @param requestPath decoded once by the container, not decoded again here
     * @return ok with the real file and its path relative to the real root, or the rejection
     */
    public Resolution resolve(String requestPath) {
        return resolve(requestPath, false);
    }

    /**
     * Resolves a request path (the part after the mapped URL prefix) inside the root.
     *
     * @param requestPath   decoded once by the container, not decoded again here
     * @param finalNameOnly check only the last segment for a link: for an offload to a front end that refuses
     *                      links at open time ({@code frontEndConfines}); a link in a directory of the path is
     *                      then left to the front end (and to {@link ConfinedOpener})
     * @return ok with the real file and its path relative to the real root, or the rejection
     */
    public Resolution resolve(String requestPath, boolean finalNameOnly) {
        Resolution bad = checkNames(requestPath);
        if (bad != null) {
            return bad;
        }
        Path candidate;
        try {
            // resolved once: the check's path is the walk's
            candidate = root.resolve(requestPath);
        } catch (InvalidPathException e) {
            return Resolution.rejected(400, "invalid path");
        }
        return walk(candidate, requestPath, finalNameOnly, false);
    }

    /**
     * Checks a request path's names as {@link #resolve} does, without a file-system call: the file below the root
     * by that name, not known to exist, without size or time. Only for a hand-off to a front end that opens the
     * name below the root refusing every link and anything but a readable regular file (nginx with
     * {@code disable_symlinks on from=<root>}, policy {@link SymlinkPolicy#NEVER}: the walk would refuse the same
     * links, and no link is resolved to a real path).
     *
     * @param requestPath decoded once by the container, not decoded again here
     * @return ok with the file by its name and that name below the root, or the rejection of the names
     */
    public Resolution named(String requestPath) {
        Resolution bad = checkNames(requestPath);
        if (bad != null) {
            return bad;
        }
        try {
            return Resolution.ok(directory, root.resolve(requestPath), requestPath);
        } catch (InvalidPathException e) {
            return Resolution.rejected(400, "invalid path");
        }
    }

    /**
     * Checks a request path and opens the file in one pass, for an answer the filter sends itself: the names are
     * checked as {@link #resolve} checks them, then each directory and the file are opened below the root without
     * following a link ({@link ConfinedOpener#openPlain}), so the walk that checks is the walk that opens, and
     * the file's size comes from the open file. A path that meets a link or anything else the plain walk does not
     * take (a missing, unreadable or irregular file, a platform without {@code SecureDirectoryStream}) is judged
     * by {@link #resolve} and then opened by its real path, which gives the precise answer.
     *
     * @param requestPath decoded once by the container, not decoded again here
     * @return the checked, open file, or the rejection
     */
    public Opening open(String requestPath) {
        Resolution bad = checkNames(requestPath);
        if (bad != null) {
            return Opening.refused(bad);
        }
        Opening kept = fromMemory(requestPath);
        if (kept != null) {
            // kept under this very name: it was made a path, walked and opened before
            return kept;
        }
        Path candidate;
        try {
            candidate = root.resolve(requestPath);
        } catch (InvalidPathException e) {
            return Opening.refused(Resolution.rejected(400, "invalid path"));
        }
        return openChecked(candidate, requestPath, () -> walk(candidate, requestPath, false, false));
    }

    /** The small file's bytes in memory, validated now; {@code null}: open it. */
    private Opening fromMemory(String relative) {
        if (!WALK || smallFiles == null) {
            return null;
        }
        SmallFileCache.Kept kept = smallFiles.lookup(directory, relative);
        return kept == null ? null : Opening.opened(Resolution.ok(directory, kept.file(), relative), kept.open());
    }

    /**
     * {@link #resolveNamedBelow} and the open in one pass: for a declared name below this root made of plain
     * segments (no {@code .}/{@code ..}; hidden ones refused unless allowed).
     *
     * @return the open file, its rejection, or {@code null} when the name needs {@link #resolveDeclared} (it is
     *         not below this root, has a dot segment or reaches the file through a link)
     */
    public Opening openNamedBelow(Path file) {
        String relative = namedBelow(file);
        Resolution bad = relative == null ? null : checkNamedBelow(relative);
        if (relative == null || bad == DOTS) {
            return null;
        }
        if (bad != null) {
            return Opening.refused(bad);
        }
        Opening kept = fromMemory(relative);
        if (kept != null) {
            return kept;
        }
        Opening opening = openChecked(file, relative, () -> walk(file, relative, false, true));
        return opening.resolution() == LINK_MET ? null : opening;
    }

    /**
     * The plain one-pass open (whose small, settled file is kept), else the resolution {@code careful} gives and the
     * open of its real path.
     */
    private Opening openChecked(Path candidate, String relative, Supplier<Resolution> careful) {
        if (WALK) {
            Optional<OpenFile> plain = ConfinedOpener.openPlain(directory, relative);
            if (plain.isPresent()) {
                OpenFile open = smallFiles == null ? plain.get()
                        : smallFiles.offer(directory, relative, candidate, plain.get());
                return Opening.opened(Resolution.ok(directory, candidate, relative), open);
            }
        }
        Resolution r = careful.get();
        if (!r.isOk()) {
            return Opening.refused(r);
        }
        try {
            return ConfinedOpener.open(r);
        } catch (IOException e) {
            return Opening.refused(Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName()));
        }
    }

    /** The checks of a request path's characters and segments, without making its path; {@code null}: fine. */
    private Resolution checkNames(String requestPath) {
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
        int start = 0;
        while (true) {
            int end = requestPath.indexOf('/', start);
            String reason = checkSegment(requestPath, start, end < 0 ? requestPath.length() : end, start == 0);
            if (reason != null) {
                return Resolution.rejected(404, reason);
            }
            if (end < 0) {
                break;
            }
            start = end + 1;
        }
        return null;
    }

    /**
     * Checks a file handed over by the application.
     *
     * @param file an absolute path
     * @return ok with the real file and its path relative to the real root; rejected with 500 when the path is
     *         not absolute or the file lies outside the root (not through a link below it), 404 when it is missing,
     *         not a readable regular file, hidden, reached through a forbidden symbolic link
     *         ({@link #refuseLinkedName}), or contains {@code .}/{@code ..} segments (those usually come from
     *         untrusted input the application joined to a root)
     */
    public Resolution resolveDeclared(Path file) {
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
        Resolution named = resolveNamedBelow(file, false);
        return named != null ? named : resolveDeclaredByRealPath(file);
    }

    /**
     * The walk of {@link #resolve} for a declared file whose name starts with this root: when no segment below the
     * root is a link, the file is where its name says, and the location a caller chose by that name
     * ({@code XAccelConfig.locationNamed}) is the one its real path lies in. Hidden segments below the root are
     * refused unless allowed (404), as {@link #resolveDeclared} refuses them.
     *
     * @param file          the declared path
     * @param finalNameOnly as for {@link #resolve(String, boolean)}
     * @return the resolution, or {@code null} when the name is not absolute, does not lie below the root, has a
     *         {@code .}/{@code ..} segment (it may climb out: where to, and so 404 or 500, is decided on the real
     *         path) or reaches the file through a link (then {@link #resolveDeclared} decides on the real path)
     */
    public Resolution resolveNamedBelow(Path file, boolean finalNameOnly) {
        String relative = namedBelow(file);
        Resolution bad = relative == null ? null : checkNamedBelow(relative);
        if (relative == null || bad == DOTS) {
            return null;
        }
        if (bad != null) {
            return bad;
        }
        Resolution r = walk(file, relative, finalNameOnly, true);
        return r == LINK_MET ? null : r;
    }

    /**
     * The refusal of a declared name below this root by its name (no dot segment) whose file lies where a link on
     * the way leads ({@link #resolveNamedBelow} met one): with {@code symlinks=never} every such name, with
     * {@code within-root} one whose real path leaves this root. A link is the root's content, not the application's
     * doing, so it is refused as the mapped mode refuses it ({@code 404}), never taken for a file the application
     * declared outside every location ({@code 500}).
     *
     * @param file the declared path
     * @param real its real path
     * @return the refusal, or {@code null} when the name is not such a name or the policy follows the link
     */
    public Resolution refuseLinkedName(Path file, Path real) {
        String relative = namedBelow(file);
        if (relative == null || checkNamedBelow(relative) == DOTS) {
            return null;
        }
        if (policy == SymlinkPolicy.NEVER) {
            return LINK_MET;
        }
        return real.startsWith(root) && !real.equals(root) ? null : Resolution.rejected(404, "link out of the root");
    }

    /**
     * The '/'-separated part of a declared name below this root, when the name may be walked as it is: absolute,
     * below the root, on a platform whose link-free names are real paths; {@code null} otherwise.
     */
    private String namedBelow(Path file) {
        if (!WALK || !file.isAbsolute() || !file.startsWith(root) || file.getNameCount() == root.getNameCount()) {
            return null;
        }
        String name = file.toString();
        String rootName = root.toString();
        return name.substring(rootName.endsWith("/") ? rootName.length() : rootName.length() + 1);
    }

    /**
     * The segments of a declared name below the root, in order: the first dot segment makes it {@link #DOTS} (it
     * may climb out: where to, and so 404 or 500, is decided on the real path), the first hidden one (unless
     * allowed) a rejection; {@code null} when all are plain.
     */
    private Resolution checkNamedBelow(String relative) {
        for (int start = 0; start < relative.length(); ) {
            int end = relative.indexOf('/', start);
            end = end < 0 ? relative.length() : end;
            if (isDots(relative, start, end)) {
                return DOTS;
            }
            if (!allowHidden && relative.charAt(start) == '.') {
                return Resolution.rejected(404, "hidden segment");
            }
            start = end + 1;
        }
        return null;
    }

    /** Whether the segment {@code path[start, end)} is made of dots only. */
    private static boolean isDots(String path, int start, int end) {
        for (int i = start; i < end; i++) {
            if (path.charAt(i) != '.') {
                return false;
            }
        }
        return true;
    }

    /** {@link #resolveDeclared} for a name that reaches the file through links: judged on the real path. */
    private Resolution resolveDeclaredByRealPath(Path file) {
        Path real;
        try {
            real = file.toRealPath();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        if (!real.startsWith(root) || real.equals(root)) {
            // out through a link below the root (perhaps swapped in since the caller's look): refused, not a bug
            Resolution linked = refuseLinkedName(file, real);
            return linked != null ? linked : Resolution.rejected(500, "outside root");
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
                        if (Files.readAttributes(walk, BasicFileAttributes.class, NO_FOLLOW)
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
    public static String checkNames(Path file, boolean allowHidden) {
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
     * The file of {@code r} (resolved below a root inside this one, e.g. a mapping's) expressed relative to this
     * resolver's root.
     */
    public Resolution rebase(Resolution r) {
        if (r.root().equals(root)) {
            return r;
        }
        return r.below(directory, slashSeparated(root.relativize(r.file())));
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

    /** {@link #walk}'s answer for a declared name that met a link (never returned to callers outside). */
    private static final Resolution LINK_MET = Resolution.rejected(404, "symbolic link");
    /** {@link #checkNamedBelow}'s answer for a declared name with a dot segment (never returned outside). */
    private static final Resolution DOTS = Resolution.rejected(404, "dot segment");

    /**
     * The no-follow walk below the real root: each directory of {@code relative} (all of them, or none with
     * {@code finalNameOnly}) and the file itself, one {@code lstat} each, then {@code access}. No link met: the
     * candidate is the real file. A link met: {@link SymlinkPolicy#NEVER} rejects it, otherwise
     * {@link #finish} resolves and judges the real path ({@link #LINK_MET} instead for a declared name, which
     * {@link #resolveDeclared} judges on its own).
     *
     * @param candidate the root resolved with {@code relative}
     * @param relative  validated segments (no empty, dot or forbidden ones) joined by '/'
     * @param declared  whether the candidate is a name the application declared
     */
    private Resolution walk(Path candidate, String relative, boolean finalNameOnly, boolean declared) {
        if (!WALK) {
            return policy == SymlinkPolicy.NEVER ? walkSlow(candidate, relative) : finish(candidate);
        }
        BasicFileAttributes attrs;
        try {
            Path[] dirs = finalNameOnly ? null : directories(candidate, relative);
            if (dirs != null) {
                for (Path d : dirs) {
                    BasicFileAttributes dir = Files.readAttributes(d, BasicFileAttributes.class, NO_FOLLOW);
                    if (dir.isSymbolicLink()) {
                        return linkMet(candidate, declared);
                    }
                    if (!dir.isDirectory()) {
                        return Resolution.rejected(404, "not found");
                    }
                }
            }
            attrs = Files.readAttributes(candidate, BasicFileAttributes.class, NO_FOLLOW);
        } catch (InvalidPathException e) {
            return Resolution.rejected(400, "invalid path");
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        if (attrs.isSymbolicLink()) {
            return linkMet(candidate, declared);
        }
        if (!attrs.isRegularFile()) {
            return Resolution.rejected(404, attrs.isDirectory() ? "directory" : "not a regular file");
        }
        if (!Files.isReadable(candidate)) {
            return Resolution.rejected(404, "not readable");
        }
        return Resolution.ok(directory, candidate, relative, attrs);
    }

    /**
     * The directories of {@code relative} below the root, top first, as the candidate's parents (cheaper than
     * resolving each prefix again); {@code null} for a file at the top.
     */
    private static Path[] directories(Path candidate, String relative) {
        int depth = 0;
        for (int slash = relative.indexOf('/'); slash >= 0; slash = relative.indexOf('/', slash + 1)) {
            depth++;
        }
        if (depth == 0) {
            return null;
        }
        Path[] dirs = new Path[depth];
        Path d = candidate;
        for (int i = depth - 1; i >= 0; i--) {
            d = d.getParent();
            dirs[i] = d;
        }
        return dirs;
    }

    private Resolution linkMet(Path candidate, boolean declared) {
        if (declared) {
            return LINK_MET;
        }
        return policy == SymlinkPolicy.NEVER ? Resolution.rejected(404, "symbolic link") : finish(candidate);
    }

    /** Where the platform's real paths may differ from link-free names: each segment checked, then the real path. */
    private Resolution walkSlow(Path candidate, String relative) {
        Path walk = root;
        try {
            for (String segment : relative.split("/")) {
                walk = walk.resolve(segment);
                if (Files.readAttributes(walk, BasicFileAttributes.class, NO_FOLLOW)
                        .isSymbolicLink()) {
                    return Resolution.rejected(404, "symbolic link");
                }
            }
        } catch (NoSuchFileException | NotDirectoryException e) {
            return Resolution.rejected(404, "not found");
        } catch (IOException e) {
            return Resolution.rejected(404, "not accessible: " + e.getClass().getSimpleName());
        }
        return finish(candidate);
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
        return Resolution.ok(directory, real, slashSeparated(relative), attrs);
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

    /** @return a reason when the segment {@code path[start, end)} must not be served */
    private String checkSegment(String path, int start, int end, boolean first) {
        if (start == end) {
            return "empty segment";
        }
        if (isDots(path, start, end)) {
            return "dot segment";
        }
        if (!allowHidden && path.charAt(start) == '.') {
            return "hidden segment";
        }
        if (first && end - start >= 2 && path.charAt(start + 1) == ':' && isAsciiLetter(path.charAt(start))) {
            return "drive letter";
        }
        if (WINDOWS) {
            char last = path.charAt(end - 1);
            if (path.substring(start, end).indexOf(':') >= 0 || last == '.' || last == ' ') {
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
