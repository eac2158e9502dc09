package dev.lifecycle.sample.store;

import dev.lifecycle.sample.store.DataDirectoryLock.DataDirectoryInUseException;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Explains a start refused because another process works on the same data directory. */
final class DataDirectoryFailureAnalyzer extends AbstractFailureAnalyzer<DataDirectoryInUseException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, DataDirectoryInUseException cause) {
		return new FailureAnalysis(
				cause.getMessage() + ". Two processes on one data directory would corrupt each "
						+ "other's log and checkpoints.",
				"Stop the other process" + ((cause.holder() != null) ? " (pid " + cause.holder() + ")" : "")
						+ ", or give this one its own directory with --sample.data-dir=<path>.",
				cause);
	}

}
