package dev.xaccel.spring.boot.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an {@link UnsupportedSpringBootException} into the "APPLICATION FAILED TO START" report. */
class UnsupportedSpringBootFailureAnalyzer extends AbstractFailureAnalyzer<UnsupportedSpringBootException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, UnsupportedSpringBootException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
    }
}
