package dev.xaccel.suite;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.media.MediaFixture;
import dev.xaccel.testsupport.servlet.SuiteApp;

/**
 * The body writer the filter picks in this container for large, directly served single ranges: the container's
 * hand-off of the channel the filter opened where it has one ({@code channel-transfer} on Undertow,
 * {@code byte-buffer} on Jetty), {@code direct-buffer} on Tomcat unless {@code sendfile=true}
 * ({@link dev.xaccel.testsupport.servlet.ServletContainer.Factory#expectedBodyWriter()}). Seen in the filter's FINE
 * line {@code body via <name>}, one per body; the copy loop is not used where a hand-off was picked. Small bodies
 * and a stream an application filter replaced are copied; the bytes are exact in every case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public class ZeroCopyIT {

    private DeliveryStack stack;
    private MediaFixture media;
    private BodyWriterLog log;

    /** Init-params besides the stack's: served directly. */
    protected Map<String, String> filterParams() {
        return Map.of("offload", "never");
    }

    /** The writer of a large body here. */
    protected String expectedBodyWriter() {
        return SuiteEnvironment.container().expectedBodyWriter();
    }

    /** Names the directories. */
    protected String suite() {
        return "zerocopy";
    }

    @BeforeAll
    void start() throws Exception {
        stack = DeliveryStack.start(suite(), MediaFixture.create(suite()), filterParams(), null, false);
        media = stack.media;
    }

    @AfterAll
    void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @BeforeEach
    void capture() {
        log = BodyWriterLog.start();
    }

    @AfterEach
    void release() {
        log.close();
    }

    private RawHttp.Response get(String target, String... headers) {
        RawHttp.Request req = SuiteApp.authGet(target);
        for (int i = 0; i < headers.length; i += 2) {
            req.header(headers[i], headers[i + 1]);
        }
        return req.send(stack.containerPort());
    }

    /** The writers the filter logged, in order. */
    private List<String> writers() {
        return log.writers();
    }

    @ParameterizedTest
    @EnumSource(DeliverySuite.Api.class)
    void aLargeFileLeavesThroughTheContainersHandOff(DeliverySuite.Api api) {
        RawHttp.Response r = get(api.target("big.bin"));
        assertEquals(200, r.status(), r.toString());
        assertEquals(MediaFixture.sha256(media.content("big.bin")), MediaFixture.sha256(r.body()));
        assertEquals(List.of(expectedBodyWriter()), writers(), SuiteEnvironment.container().name());
        assertTrue(log.contains("body via " + expectedBodyWriter() + ": [" + MediaFixture.BIG_SIZE + "] bytes"),
                log.messages().toString());
    }

    @Test
    void aLargeRangeToo() {
        RawHttp.Response r = get(SuiteApp.MAPPED_PREFIX + "big.bin", "Range", "bytes=1000-2000999");
        assertEquals(206, r.status(), r.toString());
        assertArrayEquals(Arrays.copyOfRange(media.content("big.bin"), 1000, 2001000), r.body());
        assertEquals(List.of(expectedBodyWriter()), writers());
        assertTrue(log.contains(": [2000000] bytes"), log.messages().toString());
    }

    @Test
    void aRangeAtTheEndOfTheFile() {
        RawHttp.Response r = get(SuiteApp.MAPPED_PREFIX + "big.bin", "Range", "bytes=-100000");
        assertEquals(206, r.status(), r.toString());
        byte[] big = media.content("big.bin");
        assertArrayEquals(Arrays.copyOfRange(big, big.length - 100000, big.length), r.body());
        assertEquals(List.of(expectedBodyWriter()), writers());
    }

    /** Copied from the open file, or written from memory once it was kept (the small-file cache is on). */
    @Test
    void aSmallFileIsCopied() {
        RawHttp.Response r = get(SuiteApp.MAPPED_PREFIX + "small.txt");
        assertArrayEquals(media.content("small.txt"), r.body());
        List<String> writers = writers();
        assertTrue(writers.equals(List.of("copy")) || writers.equals(List.of("memory")), writers.toString());
    }

    @Test
    void aStreamAnApplicationFilterReplacedGetsTheBytesCopied() {
        RawHttp.Response r = get(SuiteApp.MAPPED_PREFIX + "big.bin", StreamWrappingFilter.HEADER, "1");
        assertEquals(200, r.status(), r.toString());
        assertEquals(MediaFixture.sha256(media.content("big.bin")), MediaFixture.sha256(r.body()));
        assertEquals(List.of("copy"), writers());
    }

    @Test
    void headAndMultipartUseNoSingleRangeWriter() {
        RawHttp.Response head = RawHttp.request("HEAD", SuiteApp.MAPPED_PREFIX + "big.bin")
                .header("Authorization", dev.xaccel.testsupport.servlet.BearerAuthFilter.AUTHORIZATION)
                .send(stack.containerPort());
        assertEquals(0, head.body().length);
        RawHttp.Response multi = get(SuiteApp.MAPPED_PREFIX + "big.bin", "Range", "bytes=0-99,-100000");
        assertEquals(206, multi.status(), multi.toString());
        assertEquals(2, RawHttp.byteranges(multi).size());
        assertEquals(List.of(), writers());
    }

    @Test
    void manyLargeDownloadsInARowStayExact() {
        byte[] big = media.content("big.bin");
        for (int i = 0; i < 8; i++) {
            int from = i * 1_000_000;
            RawHttp.Response r = get(SuiteApp.DECLARED_PREFIX + "big.bin", "Range", "bytes=" + from + "-");
            assertEquals(206, r.status(), r.toString());
            assertArrayEquals(Arrays.copyOfRange(big, from, big.length), r.body(), "from " + from);
        }
        assertEquals(8, writers().stream().filter(expectedBodyWriter()::equals).count(), writers().toString());
    }
}
