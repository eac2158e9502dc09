package dev.lifecycle.sample.store;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a refused database into Spring Boot's "APPLICATION FAILED TO START" report: what
 * is wrong with which file, and what to do.
 */
final class StoreFailureAnalyzer extends AbstractFailureAnalyzer<UnusableDatabaseException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnusableDatabaseException cause) {
		return new FailureAnalysis("The event database " + cause.file() + " cannot be used: " + cause.description(),
				cause.action(), cause);
	}

}
