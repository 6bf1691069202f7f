package dev.xaccel.it.glassfish7;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.glassfish.jersey.internal.Version;
import org.junit.jupiter.api.Test;

import dev.xaccel.suite.JaxRsSuite;

/** The JAX-RS feature under the Jersey 3.1 that GlassFish 7 ships (in the embedded jar; no Jersey jar beside it). */
class JaxRsIT extends JaxRsSuite {

    @Test
    void theJerseyHereIsGlassFishs31() {
        assertTrue(Version.getVersion().startsWith("3.1."), Version.getVersion());
        assertTrue(Version.class.getProtectionDomain().getCodeSource().getLocation().getPath()
                .contains("glassfish-embedded-all"), Version.class.getProtectionDomain().getCodeSource().toString());
    }
}
