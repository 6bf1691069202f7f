package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Pattern;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.frontend.FrontEnd;
import dev.xaccel.testsupport.servlet.SuiteApp;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code frontEndConfines=true} behind nginx as shipped: the filter checks only the file's own name of an
 * offloaded request, and nginx's {@code disable_symlinks on from=<root>} refuses a link in a directory when it
 * opens the file. The race of {@link SymlinkSwapIT} (a directory and a link to outside exchanged in a loop) must
 * still carry no byte from outside, through nginx and directly (where every check stays); and a link to a
 * directory outside, simply there, is named by the filter as requested and refused by nginx.
 */
public class FrontEndConfinesIT extends SymlinkSwapIT {

    @Override
    protected FrontEnd.Factory frontEnd() {
        return SuiteEnvironment.frontEnd(FrontEnd.DEFAULT); // nginx: the front end that confines at open time
    }

    @Override
    protected Map<String, String> moreParams() {
        return Map.of("frontEndConfines", "true");
    }

    @Override
    protected String suite() {
        return "confines";
    }

    /**
     * policy | prefix | direct status: a link to a directory outside the root, with no race. Through nginx the
     * filter names it as requested and nginx refuses it when it opens the path (its error log says so; 404);
     * directly the filter refuses it as not found, mapped or declared (a link below the root is the root's content,
     * not a file the application declared outside every location).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"within-root, /library/, 404", "within-root, /files/, 404", "never, /library/, 404",
            "never, /files/, 404"})
    void aLinkToADirectoryOutsideIsRefusedWhereTheFileIsOpened(String policy, String prefix, int directStatus)
            throws IOException {
        Stack stack = stack(policy);
        Path errorLog = stack.frontEnd().accessLog().resolveSibling("error.log");
        String refusal = "/swap-link/file.bin\" failed (20: Not a directory)";
        long before = Files.readString(errorLog).split(Pattern.quote(refusal), -1).length;
        byte[] probe = Arrays.copyOfRange(OUTSIDE, 1000, 1032);
        RawHttp.Response viaNginx = SuiteApp.authGet(prefix + "swap-link/file.bin").send(stack.frontEnd().port());
        assertEquals(-1, RawHttp.indexOf(viaNginx.raw(), probe, 0), "a byte from outside through nginx");
        assertEquals(404, viaNginx.status());
        assertEquals(before + 1, Files.readString(errorLog).split(Pattern.quote(refusal), -1).length,
                "nginx refused the link when it opened the path (disable_symlinks), the filter named it");
        RawHttp.Response direct = SuiteApp.authGet(prefix + "swap-link/file.bin").send(stack.port());
        assertEquals(-1, RawHttp.indexOf(direct.raw(), probe, 0), "a byte from outside directly");
        assertEquals(directStatus, direct.status(), "served directly, every directory is checked");
    }
}
