package dev.xaccel.spring.boot3.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.boot.web.servlet.context.ServletWebServerInitializedEvent;

/** Boot 3.5's one INFO line when xaccel.connector.* cannot apply because the embedded server is not Tomcat. */
@ExtendWith(OutputCaptureExtension.class)
class AcceptFilterBoot3NoticeTest {

    /** Stands for Jetty or any other embedded server. */
    static final class OtherServer implements WebServer {
        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }

        @Override
        public int getPort() {
            return 8080;
        }
    }

    @Test
    void anotherEmbeddedServerIsNamed(CapturedOutput output) {
        try (ServletWebServerApplicationContext ctx = new ServletWebServerApplicationContext()) {
            new AcceptFilterBoot3Notice().onApplicationEvent(
                    new ServletWebServerInitializedEvent(new OtherServer(), ctx));
        }
        assertThat(output.getOut()).containsOnlyOnce("xaccel.connector.* ignored: the embedded web server is "
                + OtherServer.class.getName() + ", not Tomcat");
    }
}
