package dev.xaccel.filter.internal.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;

import dev.xaccel.filter.XAccelRemote;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How a receipt names a remote object: its URL as declared, without the query that is its credential. */
class RemoteDeliveryTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://127.0.0.1:9000/media/books/Chapter%201.mp3?X-Amz-Signature=ab&X-Amz-Credential=k"
                + " | http://127.0.0.1:9000/media/books/Chapter%201.mp3",
        "https://bucket.s3.eu-west-1.amazonaws.com/a%2Bb/k?x=1 | https://bucket.s3.eu-west-1.amazonaws.com/a%2Bb/k",
        "https://h/%C3%BCber.bin | https://h/%C3%BCber.bin",
        "http://h?only=query | http://h",
        "http://h:8080/ | http://h:8080/",
    })
    void namesTheObjectWithoutTheQuery(String url, String expected) {
        assertEquals(expected, RemoteDelivery.receiptName(XAccelRemote.of(URI.create(url)).url()));
    }
}
