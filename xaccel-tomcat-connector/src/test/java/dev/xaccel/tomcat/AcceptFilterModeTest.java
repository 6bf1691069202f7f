package dev.xaccel.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class AcceptFilterModeTest {

    @Test
    void parsesCaseInsensitively() {
        assertEquals(AcceptFilterMode.HTTPREADY, AcceptFilterMode.parse(" HttpReady "));
        assertEquals(AcceptFilterMode.NONE, AcceptFilterMode.parse("none"));
        assertEquals(AcceptFilterMode.AUTO, AcceptFilterMode.parse("auto"));
    }

    @Test
    void invalidValueNamesAttributeAndValue() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> AcceptFilterMode.parse("httpredy"));
        assertEquals("Invalid value [httpredy] for connector attribute [acceptFilter]: expected "
                + "auto|httpready|dataready|tlsready|none", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> AcceptFilterMode.parse(null));
    }

    @Test
    void autoChoosesPerTlsAndProtocol() {
        assertEquals(List.of(AcceptFilter.HTTPREADY),
                AcceptFilterMode.AUTO.candidates(false, AcceptFilter.HTTPREADY));
        assertEquals(List.of(AcceptFilter.TLSREADY, AcceptFilter.DATAREADY),
                AcceptFilterMode.AUTO.candidates(true, AcceptFilter.HTTPREADY));
        assertEquals(List.of(AcceptFilter.DATAREADY),
                AcceptFilterMode.AUTO.candidates(false, AcceptFilter.DATAREADY));
        assertEquals(List.of(AcceptFilter.HTTPREADY), AcceptFilterMode.HTTPREADY.candidates(true,
                AcceptFilter.HTTPREADY));
        assertEquals(List.of(), AcceptFilterMode.NONE.candidates(false, AcceptFilter.HTTPREADY));
    }
}
