package dev.xaccel.it.tomcat11;

import dev.xaccel.suite.TomcatSendfileSuite;

/** {@code sendfile=true} in Tomcat 11: its sendfile by name for large single ranges. */
class SendfileZeroCopyIT extends TomcatSendfileSuite {
}
