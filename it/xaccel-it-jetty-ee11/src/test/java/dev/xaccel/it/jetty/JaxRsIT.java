package dev.xaccel.it.jetty;

import dev.xaccel.suite.JaxRsSuite;

/** The JAX-RS feature under Jersey 4 in Jetty 12.1 ee11. */
class JaxRsIT extends JaxRsSuite {
}
