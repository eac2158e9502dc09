package dev.lifecycle.core;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the host tells the engine of its requests, counted without a lock or a clock read
 * so it can be told on every request: activity, whose movement ends an adaptive drain,
 * and failures, which the report counts.
 */
final class Traffic {

	/** Requests seen; only its movement matters, to the adaptive drain. */
	private final LongAdder activity = new LongAdder();

	/** Requests that failed after the trigger, for the report. */
	private final LongAdder failed = new LongAdder();

	void recordActivity() {
		this.activity.increment();
	}

	void recordFailure() {
		this.failed.increment();
	}

	long activity() {
		return this.activity.sum();
	}

	long failed() {
		return this.failed.sum();
	}

}
