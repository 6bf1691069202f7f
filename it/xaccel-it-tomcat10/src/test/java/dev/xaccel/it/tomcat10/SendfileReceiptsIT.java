package dev.xaccel.it.tomcat10;

import dev.xaccel.suite.TomcatSendfileReceiptsSuite;

/** Delivery receipts with {@code sendfile=true} in Tomcat 10.1: Tomcat's sendfile by name not used. */
class SendfileReceiptsIT extends TomcatSendfileReceiptsSuite {
}
