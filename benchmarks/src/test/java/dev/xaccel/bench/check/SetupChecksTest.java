package dev.xaccel.bench.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A tampered signature always differs from the real one (a signature may begin with the character a fixed one
 * uses).
 */
class SetupChecksTest {

    @Test
    void theFirstDigitOfTheStoresSignatureIsChanged() {
        assertEquals("/s/x?X-Amz-Date=1&X-Amz-Signature=0bc",
                SetupChecks.tamper("/s/x?X-Amz-Date=1&X-Amz-Signature=abc", "X-Amz-Signature", '0', '1'));
        assertEquals("/s/x?X-Amz-Signature=1bc", SetupChecks.tamper("/s/x?X-Amz-Signature=0bc", "X-Amz-Signature",
                '0', '1'));
    }

    @Test
    void theFirstCharacterOfTheSignedLinksSignatureIsChanged() {
        assertEquals("/s/media/a.bin?md5=Bbc&expires=1", SetupChecks.tamper("/s/media/a.bin?md5=Abc&expires=1", "md5",
                'A', 'B'));
        assertEquals("/s/media/a.bin?md5=Abc&expires=1", SetupChecks.tamper("/s/media/a.bin?md5=xbc&expires=1", "md5",
                'A', 'B'));
    }
}
