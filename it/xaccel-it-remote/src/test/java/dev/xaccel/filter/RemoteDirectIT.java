package dev.xaccel.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.xaccel.testsupport.RawHttp;
import dev.xaccel.testsupport.boundary.BoundaryCheck;

import org.junit.jupiter.api.Test;

/** The remote scenarios without a front end: the filter fetches the object and streams it itself. */
class RemoteDirectIT extends AbstractRemoteIT {

    RemoteDirectIT() {
        super("remote-direct", false);
    }

    @Test
    void aClientSendingTheMarkerItselfGetsTheObjectNotARedirect() throws Exception {
        // Tomcat sees the test client on loopback (a trusted proxy): the marker alone decides here, so send none
        // and prove the answer carries the object, never an empty 200 with X-Accel-Redirect
        String target = object("no-marker.bin", BoundaryCheck.uniqueContent("no-marker", 1000));
        RawHttp.Response r = authGet(target).send(stack.port());
        assertEquals(200, r.status());
        assertEquals(1000, r.body().length);
        assertNull(r.header("X-Accel-Redirect"));
    }
}
