package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.tomcat.util.IntrospectionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.xaccel.tomcat.FakeNativeSockets.Generation;
import dev.xaccel.tomcat.internal.os.OsFamily;

/** Endpoint lifecycle with the simulated FreeBSD kernel: validation, failOnError both ways, attributes. */
class AcceptFilterNioEndpointTest {

    private AcceptFilterNioEndpoint endpoint;
    private FakeNativeSockets kernel;

    private AcceptFilterNioEndpoint endpoint(String... loaded) {
        kernel = new FakeNativeSockets(OsFamily.FREEBSD, Generation.NEW_EBUSY,
                () -> new InetSocketAddress(InetAddress.getLoopbackAddress(), endpoint.getLocalPort()), loaded);
        endpoint = new AcceptFilterNioEndpoint(AcceptFilter.HTTPREADY, AcceptFilterNioEndpoint.HTTP_WAKE_UP,
                new AcceptFilterInstaller(OsFamily.FREEBSD, () -> kernel));
        endpoint.setName("http-nio-test");
        endpoint.setAddress(InetAddress.getLoopbackAddress());
        endpoint.setPort(0);
        return endpoint;
    }

    @AfterEach
    void destroy() throws Exception {
        if (endpoint != null) {
            endpoint.destroy();
        }
    }

    /** Tomcat 11's endpoint has what the checked-file sockets need; a class without it (as 10.1's) is refused. */
    @Test
    void checkedFileSocketsNeedTomcat11sCreateChannel() {
        assertTrue(AcceptFilterNioEndpoint.canSetUpCheckedFileSockets(org.apache.tomcat.util.net.NioEndpoint.class));
        assertFalse(AcceptFilterNioEndpoint.canSetUpCheckedFileSockets(
                org.apache.tomcat.util.net.AbstractEndpoint.class));
    }

    @Test
    void defaults() {
        AcceptFilterNioEndpoint e = new AcceptFilterNioEndpoint();
        assertEquals("auto", e.getAcceptFilter());
        assertEquals(1, e.getDeferAcceptSeconds());
        assertFalse(e.getAcceptFilterFailOnError());
        assertFalse(e.isAcceptFilterActive());
        assertEquals("", e.getAcceptFilterKernelValue());
    }

    @Test
    void activeFilterIsVisibleAfterInit() throws Exception {
        endpoint("httpready").init();
        assertTrue(endpoint.isAcceptFilterActive());
        assertEquals("httpready", endpoint.getAcceptFilterEffective());
        assertEquals("httpready", endpoint.getAcceptFilterKernelValue());
        assertEquals(AcceptFilter.HTTPREADY, kernel.installed);
    }

    @Test
    void missingModuleWarnsAndStartsByDefault() throws Exception {
        endpoint().init();
        assertFalse(endpoint.isAcceptFilterActive());
        assertTrue(endpoint.acceptFilterStatus().failed());
        assertTrue(endpoint.acceptFilterStatus().message().contains("kldload accf_http"));
        assertTrue(endpoint.getLocalPort() > 0, "still listening");
    }

    @Test
    void missingModuleFailsStartupWithFailOnErrorAndClosesTheSocket() throws Exception {
        endpoint().setAcceptFilterFailOnError(true);
        AcceptFilterNioEndpoint e = endpoint;
        Exception thrown = assertThrows(Exception.class, e::init);
        assertTrue(thrown.getMessage().contains("acceptFilterFailOnError is true"), thrown.getMessage());
        assertTrue(thrown.getMessage().contains("kldload accf_http"), thrown.getMessage());
        assertEquals(-1, e.getLocalPort(), "socket closed after the failed bind");
        endpoint = null;
    }

    @Test
    void invalidAcceptFilterFailsBeforeBinding() {
        endpoint("httpready").setAcceptFilter("httpredy");
        Exception thrown = assertThrows(IllegalArgumentException.class, endpoint::init);
        assertEquals("Invalid value [httpredy] for connector attribute [acceptFilter]: expected "
                + "auto|httpready|dataready|tlsready|none", thrown.getMessage());
        assertEquals(-1, endpoint.getLocalPort());
        endpoint = null;
    }

    @Test
    void invalidDeferAcceptSecondsFails() {
        endpoint("httpready").setDeferAcceptSeconds(0);
        Exception thrown = assertThrows(IllegalArgumentException.class, endpoint::init);
        assertEquals("Invalid value [0] for connector attribute [deferAcceptSeconds]: expected 1..3600",
                thrown.getMessage());
        endpoint = null;
    }

    @Test
    void invalidCheckedFileSendfileFailsBeforeBinding() {
        endpoint("httpready").setCheckedFileSendfile("yes");
        Exception thrown = assertThrows(IllegalArgumentException.class, endpoint::init);
        assertEquals("Invalid value [yes] for connector attribute [checkedFileSendfile]: expected true|false",
                thrown.getMessage());
        assertEquals(-1, endpoint.getLocalPort());
        endpoint = null;
    }

    @Test
    void checkedFileSendfileIsOnByDefaultAndNeedsUseSendfile() {
        AcceptFilterNioEndpoint e = new AcceptFilterNioEndpoint();
        assertEquals("true", e.getCheckedFileSendfile());
        assertTrue(e.isCheckedFileSendfileActive());
        e.setUseSendfile(false);
        assertFalse(e.isCheckedFileSendfileActive());
    }

    @Test
    void serverXmlAttributesReachTheEndpointThroughTheProtocol() throws Exception {
        AcceptFilterHttp11NioProtocol protocol = new AcceptFilterHttp11NioProtocol();
        assertTrue(IntrospectionUtils.setProperty(protocol, "acceptFilter", "dataready"));
        assertTrue(IntrospectionUtils.setProperty(protocol, "deferAcceptSeconds", "30"));
        assertTrue(IntrospectionUtils.setProperty(protocol, "acceptFilterFailOnError", "true"));
        AcceptFilterNioEndpoint e = protocol.acceptFilterEndpoint();
        assertEquals("dataready", e.getAcceptFilter());
        assertEquals(30, e.getDeferAcceptSeconds());
        assertTrue(e.getAcceptFilterFailOnError());
        assertEquals("dataready", IntrospectionUtils.getProperty(protocol, "acceptFilter"));
        assertTrue(IntrospectionUtils.setProperty(protocol, "checkedFileSendfile", "false"));
        assertEquals("false", e.getCheckedFileSendfile());

        AcceptFilterAjpNioProtocol ajp = new AcceptFilterAjpNioProtocol();
        assertTrue(IntrospectionUtils.setProperty(ajp, "acceptFilter", "none"));
        assertEquals("none", ajp.acceptFilterEndpoint().getAcceptFilter());
    }

    @Test
    void wildcardWakeUpGoesToLoopbackOfTheSameFamily() throws Exception {
        assertEquals(new InetSocketAddress("127.0.0.1", 80),
                AcceptFilterNioEndpoint.wakeUpAddress(new InetSocketAddress("0.0.0.0", 80)));
        assertEquals(new InetSocketAddress("::1", 80),
                AcceptFilterNioEndpoint.wakeUpAddress(new InetSocketAddress("::", 80)));
        assertEquals(new InetSocketAddress("127.0.0.2", 80),
                AcceptFilterNioEndpoint.wakeUpAddress(new InetSocketAddress("127.0.0.2", 80)));
    }

    @Test
    void wakeUpRequestIsACompleteHttpRequestAndAjpCping() {
        assertEquals("OPTIONS * HTTP/1.0\r\nUser-Agent: xaccel-tomcat wake-up\r\n\r\n",
                new String(AcceptFilterNioEndpoint.HTTP_WAKE_UP, java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals(5, AcceptFilterNioEndpoint.AJP_CPING.length);
        assertEquals(0x0A, AcceptFilterNioEndpoint.AJP_CPING[4]);
    }
}
