package dev.xaccel.filter.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;

import jakarta.servlet.ServletRequest;

import dev.xaccel.filter.InitParams;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The trust decision of {@code offload=auto} per connection. What Tomcat reports on a Unix domain socket
 * (127.0.0.1, ports 0) is measured end to end with a real connector by {@code UnixSocketOffloadIT}.
 */
class FrontEndTrustTest {

    /** A request that reports these connection facts and nothing else. */
    private static ServletRequest request(String remoteAddr, int remotePort, int localPort) {
        return (ServletRequest) Proxy.newProxyInstance(FrontEndTrustTest.class.getClassLoader(),
                new Class<?>[] {ServletRequest.class}, (p, m, a) -> switch (m.getName()) {
                    case "getRemoteAddr" -> remoteAddr;
                    case "getRemotePort" -> remotePort;
                    case "getLocalPort" -> localPort;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
    }

    private static TrustedProxies proxies(String v) {
        return TrustedProxies.parse(InitParams.TRUSTED_PROXIES, v);
    }

    @ParameterizedTest(name = "trustedProxies=[{0}], {1}:{2} -> :{3}: {4}")
    @CsvSource(delimiter = '|', value = {
        // TCP: the address decides, unix changes nothing
        "127.0.0.0/8, ::1       | 127.0.0.1 | 40000 | 8080 | true",
        "127.0.0.0/8, ::1, unix | 127.0.0.1 | 40000 | 8080 | true",
        "unix                   | 127.0.0.1 | 40000 | 8080 | false",
        "10.0.0.5               | 10.0.0.5  | 40000 | 8080 | true",
        // a Unix socket (Tomcat: 127.0.0.1, ports 0): only the word unix trusts it, never the fabricated address
        "127.0.0.0/8, ::1       | 127.0.0.1 | 0     | 0    | false",
        "0.0.0.0/0              | 127.0.0.1 | 0     | 0    | false",
        "unix                   | 127.0.0.1 | 0     | 0    | true",
        "UNIX                   | ''        | 0     | 0    | true",
        "10.0.0.5, unix         | 127.0.0.1 | 0     | 0    | true",
        "''                     | 127.0.0.1 | 0     | 0    | false",
        // one port 0 alone is not a Unix socket
        "unix                   | 127.0.0.1 | 0     | 8080 | false",
        "unix                   | 127.0.0.1 | 40000 | 0    | false",
        "127.0.0.0/8            | 127.0.0.1 | 0     | 8080 | true",
    })
    void decides(String config, String remoteAddr, int remotePort, int localPort, boolean trusted) {
        assertEquals(trusted, FrontEndTrust.trusted(proxies(config), request(remoteAddr, remotePort, localPort)));
    }

    @Test
    void theWordUnixIsAnEntryOfItsOwnShownOnce() {
        TrustedProxies p = proxies("127.0.0.1, unix Unix");
        assertTrue(p.trustsUnixSocket());
        assertEquals("[127.0.0.1, unix]", p.toString());
        assertFalse(p.matches("unix"));
        assertFalse(proxies("unix").isEmpty());
        assertFalse(proxies(InitParams.DEFAULT_TRUSTED_PROXIES).trustsUnixSocket());
    }
}
