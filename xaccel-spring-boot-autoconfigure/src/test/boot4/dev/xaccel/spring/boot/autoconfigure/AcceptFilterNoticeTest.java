package dev.xaccel.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.boot.web.server.servlet.context.ServletWebServerInitializedEvent;

import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterNotice;

/** The one INFO line when xaccel.connector.* cannot apply because the embedded server is not Tomcat. */
@ExtendWith(OutputCaptureExtension.class)
class AcceptFilterNoticeTest {

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
            new AcceptFilterNotice().onApplicationEvent(new ServletWebServerInitializedEvent(new OtherServer(), ctx));
        }
        assertThat(output.getOut()).containsOnlyOnce("xaccel.connector.* ignored: the embedded web server is "
                + OtherServer.class.getName() + ", not Tomcat");
    }
}
