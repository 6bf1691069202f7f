/**
 * The accept-filter connector ({@code xaccel-tomcat-connector}) on Spring Boot's embedded Tomcat, configured by
 * {@code xaccel.connector.*}.
 */
package dev.xaccel.spring.boot.autoconfigure.tomcat;
