package dev.xaccel.bench.server;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;

import org.junit.jupiter.api.Test;

class BareAccelServletTest {

    @Test
    void theBareServletNamesOnlyPlainFileNames() {
        for (String ok : List.of("/small-000.bin", "/big.bin", "/a_b-c.1")) {
            assertTrue(BareAccelServlet.isPlainName(ok), ok);
        }
        for (String bad : List.of("/", "/.hidden", "/../x", "/a/b", "/a%2Fb", "/a b", "x", "/caf\u00e9")) {
            assertFalse(BareAccelServlet.isPlainName(bad), bad);
        }
    }
}
