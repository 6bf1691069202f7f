package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.file.Path;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.xaccel.filter.internal.fs.Resolution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Argument checks and the vanished-file path; the HTTP semantics are covered by DirectFileSenderIT. */
class DirectFileSenderTest {

    @Test
    void rejectsBadBufferSize() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new DirectFileSender(true, 0));
        assertTrue(e.getMessage().contains("[0]"), e.getMessage());
    }

    @Test
    void vanishedFileIs404WhenNotCommitted(@TempDir Path dir) throws Exception {
        HttpServletRequest req = mock(HttpServletRequest.class);
        HttpServletResponse resp = mock(HttpServletResponse.class);
        when(req.getMethod()).thenReturn("GET");
        assertEquals(Sent.NOT_FOUND, new DirectFileSender(false, 4096).send(req, resp,
                Resolution.ok(dir, dir.resolve("gone.mp3"), "gone.mp3"),
                new Representation("audio/mpeg", null, null, null)));
        verify(resp).sendError(404);
    }
}
