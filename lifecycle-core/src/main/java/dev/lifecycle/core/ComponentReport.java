package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;

/**
 * How one component ended in a shutdown.
 *
 * @param name the component
 * @param tier its tier
 * @param phase its phase
 * @param outcome how it ended
 * @param duration from the moment it was told to stop to its end; zero if it ended before
 * @param cut the work its stop cut short, each named (a call cancelled when a grace period ran
 * out, for example), as told by {@link ComponentHandle#reportCut(String)}; any makes the shutdown
 * report not clean
 */
public record ComponentReport(String name, Tier tier, int phase, Outcome outcome, Duration duration,
		List<String> cut) {

	/** A report of a component whose stop cut nothing short. */
	public ComponentReport(String name, Tier tier, int phase, Outcome outcome, Duration duration) {
		this(name, tier, phase, outcome, duration, List.of());
	}

	/** Copies the list so the report cannot change after it is published. */
	public ComponentReport {
		cut = List.copyOf(cut);
	}

}
