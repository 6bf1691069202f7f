package dev.xaccel.it.tomcat11;

import dev.xaccel.suite.JaxRsSuite;

/** The JAX-RS feature under Jersey 4 in Tomcat 11. */
class JaxRsIT extends JaxRsSuite {
}
