package dev.xaccel.bench.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The tampered presign always differs from the real one (a signature may begin with the digit a fixed one uses). */
class RemoteChecksTest {

    @Test
    void theFirstDigitOfTheSignatureIsChanged() {
        assertEquals("/s/x?X-Amz-Date=1&X-Amz-Signature=0bc", RemoteChecks.tamper("/s/x?X-Amz-Date=1&X-Amz-Signature=abc"));
        assertEquals("/s/x?X-Amz-Signature=1bc", RemoteChecks.tamper("/s/x?X-Amz-Signature=0bc"));
    }
}
