package dev.xaccel.suite;

import java.util.Map;

/**
 * {@link ReceiptsIT} with {@code sendfile=true}: Tomcat's sendfile by name tells no one how far it got, so while
 * receipts are made the filter does not use it, and a client that leaves mid-file is still receipted aborted. Not
 * an {@code *IT}: a Tomcat module (11, 10.1) runs it with a subclass of its own.
 */
public abstract class TomcatSendfileReceiptsSuite extends ReceiptsIT {

    @Override
    protected String suite() {
        return "receipts-sendfile";
    }

    @Override
    protected Map<String, String> filterParams() {
        return Map.of("sendfile", "true");
    }
}
