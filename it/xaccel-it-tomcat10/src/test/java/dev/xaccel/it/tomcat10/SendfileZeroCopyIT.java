package dev.xaccel.it.tomcat10;

import dev.xaccel.suite.TomcatSendfileSuite;

/** {@code sendfile=true} in Tomcat 10.1: its sendfile by name for large single ranges. */
class SendfileZeroCopyIT extends TomcatSendfileSuite {
}
