package dev.xaccel.sample.boot;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Form login for browsers, HTTP Basic for curl; every page and file needs a user of {@code library.users}, the
 * health endpoint excepted: every other Actuator endpoint ({@code info} with its counters included) is for users
 * only. The starter's filter runs after this chain, so nothing is offloaded for a request it refused.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    @Bean
    SecurityFilterChain library(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(auth -> auth
                .requestMatchers("/actuator/health").permitAll()
                .anyRequest().hasRole("READER"))
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults());
        return http.build();
    }

    /** Right before Spring Security's chain: {@link MalformedParametersFilter} says why. */
    @Bean
    FilterRegistrationBean<MalformedParametersFilter> malformedParameters() {
        FilterRegistrationBean<MalformedParametersFilter> registration =
                new FilterRegistrationBean<>(new MalformedParametersFilter());
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER - 1);
        return registration;
    }

    @Bean
    InMemoryUserDetailsManager users(LibraryProperties properties) {
        InMemoryUserDetailsManager users = new InMemoryUserDetailsManager();
        for (LibraryProperties.User u : properties.getUsers()) {
            UserDetails user = User.withUsername(u.getName()).password(u.getPassword())
                    .roles(u.getRoles().toArray(String[]::new)).build();
            users.createUser(user);
        }
        return users;
    }
}
