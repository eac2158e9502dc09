package dev.lifecycle.core;

import java.time.Duration;

/**
 * One step of a shutdown sequence: the drain delay, a shutdown handler, a phase of the standard
 * drain, a final action, the observability drain or a closing step.
 *
 * @param name the step, as the log names it, e.g. {@code "standard drain, phase 10"}
 * @param start when it began, measured from the shutdown's initiation
 * @param duration how long it ran
 * @param result {@code "ok"}, {@code "failed"} (it threw) or {@code "timeout"} (it overran its own
 * timeout and the sequence went on without it)
 */
public record StepReport(String name, Duration start, Duration duration, String result) {

	/** The name of the drain delay's step, always the first; it ends when traffic may stop. */
	public static final String DRAIN_DELAY = "drain delay";

	static final String OK = "ok";

	static final String FAILED = "failed";

	static final String TIMEOUT = "timeout";

}
