/**
 * The Spring Boot 3.5 part of xaccel's auto-configuration: what Spring Boot 4 moved to other packages, in Boot 3's
 * (the health contributor, the accept-filter connector's customizer and notice). Everything else, the same on both
 * lines, is {@code dev.xaccel.spring.boot.autoconfigure}'s. On Spring Boot 4 these classes' conditions do not
 * match and nothing here loads.
 */
package dev.xaccel.spring.boot3.autoconfigure;
