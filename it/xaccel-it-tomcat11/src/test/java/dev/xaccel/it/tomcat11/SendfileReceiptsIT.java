package dev.xaccel.it.tomcat11;

import dev.xaccel.suite.TomcatSendfileReceiptsSuite;

/** Delivery receipts with {@code sendfile=true} in Tomcat 11: Tomcat's sendfile by name not used. */
class SendfileReceiptsIT extends TomcatSendfileReceiptsSuite {
}
