package dev.lifecycle.core;

import java.time.Duration;

/**
 * One step of a shutdown sequence, as it ended: the drain delay, a shutdown handler, a
 * phase of the standard drain, a final action, the observability drain, a closing step, a
 * phase of the infrastructure drain or a last step.
 *
 * @param kind which kind of step it was
 * @param name the step, as the log names it, e.g. {@code "standard drain, phase 10"}
 * @param start when it began, measured from the shutdown's initiation
 * @param duration how long it ran
 * @param result how it ended
 */
public record StepReport(ShutdownStep kind, String name, Duration start, Duration duration, StepResult result) {
}
