package dev.xaccel.bench.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SignedLinkChecksTest {

    @Test
    void tamperedSignature() {
        assertEquals("/s/media/a.bin?md5=Bbc&expires=1", SignedLinkChecks.tampered("/s/media/a.bin?md5=Abc&expires=1"));
        assertEquals("/s/media/a.bin?md5=Abc&expires=1", SignedLinkChecks.tampered("/s/media/a.bin?md5=xbc&expires=1"));
    }
}
