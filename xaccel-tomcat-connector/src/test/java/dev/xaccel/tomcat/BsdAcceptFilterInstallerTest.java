package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

import dev.xaccel.tomcat.FakeNativeSockets.Generation;
import dev.xaccel.tomcat.internal.os.NativeSockets;
import dev.xaccel.tomcat.internal.os.OsFamily;

/** The FreeBSD/NetBSD logic against a simulated kernel: exact calls, exact bytes, errno messages. */
class BsdAcceptFilterInstallerTest {

    private static final String GET = "getsockopt(5, 0xffff, 0x1000, buf, 256)";
    private static final String REMOVE = "setsockopt(5, 0xffff, 0x1000, NULL, 0)";

    private ServerSocketChannel channel;

    @BeforeEach
    void bind() throws IOException {
        channel = ServerSocketChannel.open();
        channel.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    @AfterEach
    void close() throws IOException {
        channel.close();
    }

    private InetSocketAddress bound() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private FakeNativeSockets kernel(OsFamily os, Generation generation, String... loaded) {
        return new FakeNativeSockets(os, generation, this::bound, loaded);
    }

    private AcceptFilterStatus install(FakeNativeSockets kernel, OsFamily os, AcceptFilterMode mode, boolean tls) {
        return new AcceptFilterInstaller(os, () -> kernel).install(channel, "http-nio-test", mode, tls,
                AcceptFilter.HTTPREADY, 1);
    }

    private static String set(String filter) {
        return "setsockopt(5, 0xffff, 0x1000, " + filter + ", 256)";
    }

    @Test
    void constantsAreThoseOfTheBsdHeaders() {
        assertEquals(0xffff, OsFamily.FREEBSD.solSocket());
        assertEquals(0xffff, OsFamily.NETBSD.solSocket());
        assertEquals(0x1000, OsFamily.SO_ACCEPTFILTER);
        assertEquals(2, OsFamily.FREEBSD.soAcceptConn());
        assertEquals(2, OsFamily.ENOENT);
        assertEquals(22, OsFamily.EINVAL);
        assertEquals(16, OsFamily.EBUSY);
        assertEquals(42, OsFamily.FREEBSD.enoprotoopt());
        assertEquals(92, OsFamily.LINUX.enoprotoopt());
        assertEquals(28, OsFamily.FREEBSD.afInet6());
        assertEquals(24, OsFamily.NETBSD.afInet6());
        assertEquals(256, AcceptFilter.STRUCT_SIZE);
    }

    @ParameterizedTest
    @EnumSource(Generation.class)
    void freshSocketGetsHttpreadyWithExactBytesAndReadBack(Generation generation) {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, generation, "httpready");
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertEquals(List.of(GET, set("httpready"), GET), kernel.callNames());
        byte[] expected = new byte[256];
        System.arraycopy("httpready".getBytes(), 0, expected, 0, 9);
        assertArrayEquals(expected, kernel.calls.get(1).value());
        assertEquals(0xffff, kernel.calls.get(1).level());
        assertEquals(0x1000, kernel.calls.get(1).option());
        assertTrue(status.active());
        assertFalse(status.failed());
        assertEquals("httpready", status.effective());
        assertEquals("httpready", status.kernelValue());
        assertTrue(status.message().contains("accept filter [httpready] active, kernel reports [httpready]"),
                status.message());
    }

    @ParameterizedTest
    @EnumSource(Generation.class)
    void sameFilterAlreadyInstalledIsKeptWithoutSetting(Generation generation) {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, generation, "httpready");
        kernel.installed = AcceptFilter.HTTPREADY;
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertEquals(List.of(GET), kernel.callNames());
        assertTrue(status.active());
        assertTrue(status.message().contains("already installed"), status.message());
    }

    @ParameterizedTest
    @EnumSource(Generation.class)
    void otherFilterIsRemovedThenTheWantedOneSet(Generation generation) {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, generation, "httpready", "dataready");
        kernel.installed = AcceptFilter.DATAREADY;
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertEquals(List.of(GET, REMOVE, set("httpready"), GET), kernel.callNames());
        assertEquals(AcceptFilter.HTTPREADY, kernel.installed);
        assertTrue(status.active());
    }

    @ParameterizedTest
    @CsvSource({ "OLD_EINVAL, 22", "NEW_EBUSY, 16" })
    void simulatedKernelRefusesToReplaceAFilterWhichIsWhyWeRemoveFirst(Generation generation, int errno)
            throws Exception {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, generation, "httpready", "dataready");
        kernel.installed = AcceptFilter.DATAREADY;
        try {
            kernel.setsockopt(5, 0xffff, 0x1000, AcceptFilter.HTTPREADY.toStruct());
            fail("kernel accepted a second filter");
        } catch (dev.xaccel.tomcat.internal.os.ErrnoException e) {
            assertEquals(errno, e.errno());
        }
    }

    @ParameterizedTest
    @CsvSource({ "HTTPREADY, httpready, accf_http", "DATAREADY, dataready, accf_data",
            "TLSREADY, tlsready, accf_tls" })
    void missingModuleTellsExactlyWhatToLoad(AcceptFilterMode mode, String filter, String module) {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY);
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, mode, false);

        assertEquals(List.of(GET, set(filter)), kernel.callNames());
        assertFalse(status.active());
        assertTrue(status.failed());
        assertEquals("", status.kernelValue());
        String m = status.message();
        assertTrue(m.contains("[" + filter + "] (ENOENT"), m);
        assertTrue(m.contains("`kldload " + module + "`"), m);
        assertTrue(m.contains("`" + module + "_load=\"YES\"` to /boot/loader.conf"), m);
        assertTrue(m.contains("http-nio-test"), m);
    }

    @Test
    void netbsdMissingFilterNamesThePseudoDevice() {
        FakeNativeSockets kernel = kernel(OsFamily.NETBSD, Generation.OLD_EINVAL);
        AcceptFilterStatus status = install(kernel, OsFamily.NETBSD, AcceptFilterMode.HTTPREADY, false);

        assertTrue(status.failed());
        assertTrue(status.message().contains("pseudo-device accf_http"), status.message());
        assertFalse(status.message().contains("kldload"), status.message());
    }

    @Test
    void einvalSaysNotListeningOrAnotherFilter() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.OLD_EINVAL, "httpready");
        kernel.injectedSetErrno = OsFamily.EINVAL;
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertTrue(status.failed());
        assertTrue(status.message().contains("failed with EINVAL: the socket is not listening, or another accept"
                + " filter is installed"), status.message());
    }

    @Test
    void ebusySaysAnotherFilterIsInstalled() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready");
        kernel.injectedSetErrno = OsFamily.EBUSY;
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertTrue(status.failed());
        assertTrue(status.message().contains("failed with EBUSY: another accept filter is installed"),
                status.message());
    }

    @Test
    void enoprotooptSaysTheKernelLacksAcceptFilters() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready");
        kernel.injectedSetErrno = OsFamily.FREEBSD.enoprotoopt();
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertTrue(status.failed());
        assertTrue(status.message().contains("does not support SO_ACCEPTFILTER (ENOPROTOOPT)"), status.message());
    }

    @Test
    void autoOnPlainHttpIsHttpready() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready", "dataready");
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.AUTO, false);

        assertEquals(List.of(GET, set("httpready"), GET), kernel.callNames());
        assertEquals("httpready", status.kernelValue());
    }

    @Test
    void autoOnTlsPrefersTlsready() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready", "dataready",
                "tlsready");
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.AUTO, true);

        assertEquals(List.of(GET, set("tlsready"), GET), kernel.callNames());
        assertEquals("tlsready", status.kernelValue());
    }

    @Test
    void autoOnTlsFallsBackToDatareadyWithoutAccfTls() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready", "dataready");
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.AUTO, true);

        assertEquals(List.of(GET, set("tlsready"), set("dataready"), GET), kernel.callNames());
        assertTrue(status.active());
        assertFalse(status.failed());
        assertEquals("dataready", status.kernelValue());
    }

    @Test
    void autoOnAjpIsDataready() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready", "dataready");
        AcceptFilterStatus status = new AcceptFilterInstaller(OsFamily.FREEBSD, () -> kernel).install(channel,
                "ajp-nio-test", AcceptFilterMode.AUTO, false, AcceptFilter.DATAREADY, 1);

        assertEquals(List.of(GET, set("dataready"), GET), kernel.callNames());
        assertEquals("dataready", status.kernelValue());
    }

    @Test
    void noneMakesNoCallAtAll() {
        AcceptFilterStatus status = new AcceptFilterInstaller(OsFamily.FREEBSD, () -> {
            throw new AssertionError("native layer loaded for none");
        }).install(channel, "http-nio-test", AcceptFilterMode.NONE, false, AcceptFilter.HTTPREADY, 1);

        assertFalse(status.active());
        assertFalse(status.failed());
        assertEquals("none", status.effective());
    }

    @ParameterizedTest
    @EnumSource(value = OsFamily.class, names = { "MACOS", "WINDOWS", "OTHER" })
    void unsupportedOsWarnsAndNeverTouchesNativeCode(OsFamily os) {
        AcceptFilterStatus status = new AcceptFilterInstaller(os, () -> {
            throw new AssertionError("native layer loaded on " + os);
        }).install(channel, "http-nio-test", AcceptFilterMode.HTTPREADY, false, AcceptFilter.HTTPREADY, 1);

        assertFalse(status.active());
        assertTrue(status.failed());
        assertTrue(status.message().startsWith("Kernel accept filters are not available on ["), status.message());
        assertTrue(status.message().contains("runs without one (acceptFilter [httpready])"), status.message());
    }

    @Test
    void missingJnaIsAWarningThatSaysWhatToInstall() {
        AcceptFilterStatus status = new AcceptFilterInstaller(OsFamily.FREEBSD, () -> {
            throw new IOException("NoClassDefFoundError: com/sun/jna/Library");
        }).install(channel, "http-nio-test", AcceptFilterMode.HTTPREADY, false, AcceptFilter.HTTPREADY, 1);

        assertTrue(status.failed());
        assertTrue(status.message().contains("cannot be loaded through JNA (NoClassDefFoundError"),
                status.message());
        assertTrue(status.message().contains("jna.jar"), status.message());
    }

    @Test
    void socketNotFoundAmongDescriptorsIsAWarning() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready");
        kernel.listening = false; // SO_ACCEPTCONN reads 0 everywhere
        AcceptFilterStatus status = install(kernel, OsFamily.FREEBSD, AcceptFilterMode.HTTPREADY, false);

        assertTrue(status.failed());
        assertTrue(status.message().contains("could not be identified"), status.message());
        assertEquals(List.of(), kernel.callNames());
    }

    @Test
    void brokenNativeBindingIsAWarningNotACrash() {
        FakeNativeSockets kernel = kernel(OsFamily.FREEBSD, Generation.NEW_EBUSY, "httpready");
        AcceptFilterStatus status = new AcceptFilterInstaller(OsFamily.FREEBSD, () -> new FakeNativeSockets(
                OsFamily.FREEBSD, Generation.NEW_EBUSY, () -> {
                    throw new UnsupportedOperationException("boom");
                })).install(channel, "http-nio-test", AcceptFilterMode.HTTPREADY, false, AcceptFilter.HTTPREADY, 1);

        assertTrue(status.failed());
        assertTrue(status.message().contains("failed unexpectedly (java.lang.UnsupportedOperationException: boom)"),
                status.message());
        assertEquals(List.of(), kernel.callNames());
    }

    @Test
    void noopFallbackIsTheSameWarningAsMissingJna() {
        NativeSockets unavailable = new NativeSockets() {
            @Override
            public void setsockopt(int fd, int level, int option, byte[] value) {
                throw new AssertionError("called");
            }

            @Override
            public void setsockoptInt(int fd, int level, int option, int value) {
                throw new AssertionError("called");
            }

            @Override
            public byte[] getsockopt(int fd, int level, int option, int length) {
                throw new AssertionError("called");
            }

            @Override
            public int getsockoptInt(int fd, int level, int option) {
                throw new AssertionError("called");
            }

            @Override
            public byte[] getsockname(int fd) {
                throw new AssertionError("called");
            }

            @Override
            public int descriptorTableSize() {
                throw new AssertionError("called");
            }

            @Override
            public boolean isAvailable() {
                return false;
            }

            @Override
            public String unavailabilityCause() {
                return "UnsatisfiedLinkError: no jnidispatch";
            }
        };
        AcceptFilterStatus status = new AcceptFilterInstaller(OsFamily.FREEBSD, () -> unavailable).install(channel,
                "http-nio-test", AcceptFilterMode.HTTPREADY, false, AcceptFilter.HTTPREADY, 1);

        assertTrue(status.failed());
        assertTrue(status.message().contains("cannot be loaded through JNA (UnsatisfiedLinkError: no jnidispatch)"),
                status.message());
    }
}
