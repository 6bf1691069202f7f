package dev.xaccel.sample.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The check of a form body: the precise 4xx per kind of malformed post, the bytes of a good one. */
class FormBodyTest {

    private static FormBody.Outcome check(String type, String body) throws Exception {
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        return FormBody.check(type, bytes.length, new ByteArrayInputStream(bytes));
    }

    @Test
    void aGoodFormKeepsItsBytes() throws Exception {
        FormBody.Outcome o = check("application/x-www-form-urlencoded; charset=UTF-8",
                "user=d%C3%A9mo&password=a+b");
        assertTrue(o.accepted());
        assertArrayEquals("user=d%C3%A9mo&password=a+b".getBytes(StandardCharsets.US_ASCII), o.bytes());
        assertTrue(check("application/x-www-form-urlencoded", "").accepted(), "an empty form");
    }

    @Test
    void noOrAnotherTypeOrAnUnknownCharsetIs415() throws Exception {
        assertEquals(415, check(null, "").status());
        assertEquals(415, check("garbage;;;=/", "a=b").status());
        assertEquals(415, check("text/plain", "a=b").status());
        assertEquals(415, check("*/*", "a=b").status());
        assertEquals(415, check("application/x-www-form-urlencoded; charset=bogus", "a=b").status());
        assertEquals(415, check("application/x-www-form-urlencoded; charset=\"\u00ff;\"", "a=b").status());
    }

    @Test
    void badEncodingIs400() throws Exception {
        for (String body : new String[] {"user=%zz", "user=%", "user=%4", "user=%C3%28", "user=\u00c3\u00a9",
            "user=a\u0000b"}) {
            assertEquals(400, check("application/x-www-form-urlencoded", body).status(), body);
        }
        assertEquals(400, check("application/x-www-form-urlencoded; charset=US-ASCII", "user=%E9").status());
        assertTrue(check("application/x-www-form-urlencoded; charset=ISO-8859-1", "user=%E9").accepted());
    }

    @Test
    void aBodyOverTheLimitIs413WhateverItsLengthSays() throws Exception {
        String big = "user=" + "a".repeat(FormBody.MAX_BYTES);
        assertEquals(413, check("application/x-www-form-urlencoded", big).status());
        byte[] bytes = big.getBytes(StandardCharsets.US_ASCII);
        assertEquals(413, FormBody.check("application/x-www-form-urlencoded", -1, new ByteArrayInputStream(bytes))
                .status(), "chunked: no length");
    }
}
