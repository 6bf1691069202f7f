/**
 * Spring Boot auto-configuration of xaccel: {@link dev.xaccel.spring.boot.autoconfigure.XAccelAutoConfiguration}
 * registers the {@code XAccelFilter} from the {@code xaccel.*} properties
 * ({@link dev.xaccel.spring.boot.autoconfigure.XAccelProperties}); meters and the Actuator info contribution sit
 * beside it. Spring MVC return values: {@code mvc}; the accept-filter connector: {@code tomcat}.
 */
package dev.xaccel.spring.boot.autoconfigure;
