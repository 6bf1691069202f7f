package dev.xaccel.spring.boot3.autoconfigure;

import org.springframework.boot.web.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

import dev.xaccel.spring.boot.autoconfigure.tomcat.AcceptFilterNotice;

/**
 * Spring Boot 3.5's {@link AcceptFilterNotice}: when {@code xaccel.connector.accept-filter} is set but cannot apply,
 * one INFO line once the web server is up. Refers to neither Tomcat nor the connector, so it loads without them.
 */
public class AcceptFilterBoot3Notice implements ApplicationListener<WebServerInitializedEvent> {

    /** Boot 3's event (Boot 4 moved it to {@code org.springframework.boot.web.server.context}). */
    static final String EVENT_CLASS = "org.springframework.boot.web.context.WebServerInitializedEvent";
    static final String TOMCAT_WEB_SERVER_CLASS = "org.springframework.boot.web.embedded.tomcat.TomcatWebServer";

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (event.getApplicationContext().getServerNamespace() != null) {
            return; // a management server: the main one was reported
        }
        AcceptFilterNotice.log(event.getWebServer().getClass().getName(), TOMCAT_WEB_SERVER_CLASS,
                event.getApplicationContext().getClassLoader());
    }
}
