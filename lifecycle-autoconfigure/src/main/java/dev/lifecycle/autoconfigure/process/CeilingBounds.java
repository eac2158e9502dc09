package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleHost;

/**
 * The bounds the global ceiling puts on an application's end, declared once: each is an
 * offset of the one deadline the engine sets at the trigger
 * ({@link LifecycleHost#ceilingDeadline()}), so nothing counts from a moment of its own.
 * The manual's table of them is generated from {@link #declared()}, and no other page
 * states them.
 */
@Internal
public final class CeilingBounds {

	/**
	 * Past the deadline, the time for the engine's report and the exit to happen before a
	 * process still ending is halted.
	 */
	public static final Duration HALT = Duration.ofMillis(1500);

	/** The most the thread dump and the halt hooks may add before the halt. */
	public static final Duration BEFORE_HALT = Duration.ofMillis(500);

	/** Past the deadline, when a wait for the report gives up. */
	public static final Duration REPORT_WAIT = Duration.ofSeconds(5);

	private static final List<Bound> DECLARED = List.of(new Bound("the sequence's ceiling", Duration.ZERO,
			"components still running are named in the log with their threads' stacks and end `timeout`, no later "
					+ "step runs, and the report says `ceiling`: exit 129"),
			new Bound("the halt", HALT,
					"a process still ending (held by a destroy method or a shutdown hook) has its threads "
							+ "dumped and the halt hooks run (the final Pushgateway push, the report's halt record), "
							+ "for at most " + millis(BEFORE_HALT) + ", then the JVM is halted with 129; "
							+ "`lifecycle.halt-after-ceiling=false` turns this off"),
			new Bound("the wait for the report", REPORT_WAIT,
					"whatever waits for the engine's report (the exit, a context that joined the engine, the run's "
							+ "thread after a failed start) stops waiting; the exit logs that no report came"));

	private CeilingBounds() {
	}

	/**
	 * Every bound, in the order they fall.
	 * @return the declared bounds
	 */
	public static List<Bound> declared() {
		return DECLARED;
	}

	private static String millis(Duration duration) {
		return duration.toMillis() + " ms";
	}

	/**
	 * One bound and what happens at it.
	 *
	 * @param name what it bounds
	 * @param pastTheCeiling its offset past the ceiling's deadline
	 * @param meaning what happens when it is reached, in Markdown
	 */
	public record Bound(String name, Duration pastTheCeiling, String meaning) {

	}

}
