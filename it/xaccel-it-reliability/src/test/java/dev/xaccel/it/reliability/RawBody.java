package dev.xaccel.it.reliability;

import dev.xaccel.testsupport.servlet.SuiteApp;

/** The body of an authorized GET, for the small answers of the application (a signed link). */
final class RawBody {

    private RawBody() {
    }

    static byte[] of(int port, String target) {
        return SuiteApp.authGet(target).send(port).body();
    }
}
