package dev.xaccel.spring.boot.autoconfigure.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * A small Spring Boot application with Spring Security (HTTP Basic; {@code reader} may read {@code /files/**},
 * {@code admin} also {@code /admin/**}) and {@link FilesController}; the starter does the rest.
 */
@SpringBootApplication
public class TestLibraryApplication {

    /** The readers' password (test only). */
    public static final String PASSWORD = "secret-pass";

    @Bean
    SecurityFilterChain security(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(auth -> auth
                .requestMatchers("/actuator/info", "/actuator/health", "/static/**", "/bytes", "/classpath")
                .permitAll()
                .requestMatchers("/admin/**").hasRole("ADMIN")
                .anyRequest().authenticated())
                .httpBasic(Customizer.withDefaults())
                .csrf(csrf -> csrf.disable());
        return http.build();
    }

    @Bean
    InMemoryUserDetailsManager users() {
        return new InMemoryUserDetailsManager(
                User.withUsername("reader").password("{noop}" + PASSWORD).roles("READER").build(),
                User.withUsername("admin").password("{noop}" + PASSWORD).roles("READER", "ADMIN").build());
    }
}
