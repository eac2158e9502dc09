package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How one component ended in a shutdown.
 *
 * @param name the component
 * @param tier its tier
 * @param phase its phase
 * @param outcome how it ended; in a report read back from a file, {@link Outcome#UNKNOWN}
 * when the file names none (the component had not ended when it was written) or one a
 * newer release wrote
 * @param start when it was told to stop, measured from the shutdown's initiation as a
 * step's {@link StepReport#start()} is; {@code null} when it was not told to stop by the
 * shutdown (it ended before)
 * @param duration from the moment it was told to stop to its end; zero if it ended before
 * @param cut the work its stop cut short: what the component told
 * {@link ComponentHandle#reportCut(String)} (a call cancelled when a grace period or its
 * budget ran out, for example), and, when the global ceiling found it still at work, each
 * thread the ceiling cut with what it did for it ({@link Cut#byCeiling()}); any makes the
 * shutdown report not clean. The client of such work saw it fail; unlike
 * {@link ShutdownReport#unfinishedWork()} it names nothing the service itself resumes
 */
public record ComponentReport(String name, Tier tier, int phase, Outcome outcome, @Nullable Duration start,
		Duration duration, List<Cut> cut) {

	/** A report of a component whose stop cut nothing short. */
	public ComponentReport(String name, Tier tier, int phase, Outcome outcome, Duration duration) {
		this(name, tier, phase, outcome, null, duration, List.of());
	}

	/** A report that does not say when the component was told to stop. */
	public ComponentReport(String name, Tier tier, int phase, Outcome outcome, Duration duration, List<Cut> cut) {
		this(name, tier, phase, outcome, null, duration, cut);
	}

	/** Copies the list so the report cannot change after it is published. */
	public ComponentReport {
		cut = List.copyOf(cut);
	}

}
