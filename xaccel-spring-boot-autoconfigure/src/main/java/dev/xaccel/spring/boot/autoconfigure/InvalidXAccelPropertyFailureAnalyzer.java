package dev.xaccel.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns an {@link InvalidXAccelPropertyException} into the "APPLICATION FAILED TO START" report. It shows only the
 * exception's own message: unlike Spring Boot's analyzer of invalid property values it never reads the value from
 * the environment, so a refused {@code xaccel.signed-link-secret} is not printed.
 */
class InvalidXAccelPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidXAccelPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidXAccelPropertyException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Correct " + cause.getProperty() + " (every xaccel.* property, its default and meaning: "
                        + "docs/spring-boot.md), or set xaccel.enabled=false.",
                cause);
    }
}
