package dev.lifecycle.core;

/**
 * Why a shutdown started. The first trigger wins; later triggers are logged and recorded
 * nowhere else.
 */
public enum ShutdownReason {

	/** A {@link ShutdownSignal}, or the host application closing. */
	SIGNAL("signal", true),

	/** The pre-stop file appeared. */
	PRESTOP("prestop", true),

	/** A component called {@code signalFailure}. */
	FAILURE("failure", false),

	/**
	 * A standard component missed its liveness deadline {@code stallThreshold} polls in a
	 * row.
	 */
	STALLED("stalled", false),

	/**
	 * A component threw, or ended during normal operation without declaring its work
	 * completed.
	 */
	DIED("died", false),

	/** A component called {@code requestShutdown}. */
	REQUESTED("requested", true),

	/** Every standard component completed its finite work. */
	COMPLETED("completed", true),

	/**
	 * The application failed to start: a component's start callback, or in a host such as
	 * Spring a bean's start, threw. The trigger names the component or bean, and its
	 * detail the cause.
	 */
	START_FAILED("start-failed", false),

	/**
	 * Only in a report read back: a reason a newer release wrote, or none at all. No
	 * shutdown of this process ever has it: a trigger with it is refused.
	 */
	UNKNOWN("unknown", false);

	private final String label;

	private final boolean clean;

	ShutdownReason(String label, boolean clean) {
		this.label = label;
		this.clean = clean;
	}

	/** The value used for the {@code trigger_reason} metric label and in logs. */
	public String label() {
		return this.label;
	}

	/** Whether this reason, on its own, leads to exit code 0. */
	public boolean isClean() {
		return this.clean;
	}

	/**
	 * What starts a shutdown with this reason, as the manual's table of reasons says it:
	 * that table is generated from this declaration, and no other page lists the reasons.
	 * @return one sentence fragment, in Markdown
	 */
	public String meaning() {
		return switch (this) {
			case SIGNAL ->
				"a [signal](#signals) was trapped, or the host application closed (component " + "`context-close`)";
			case PRESTOP -> "the pre-stop file appeared";
			case FAILURE -> "a component called `signalFailure`";
			case STALLED -> "a standard component missed its liveness deadline `stall-threshold` times in a row";
			case DIED -> "a component's `run` threw, or returned during normal operation without `workCompleted()`";
			case REQUESTED -> "a component called `requestShutdown`";
			case COMPLETED -> "every finite component completed its work";
			case START_FAILED -> "a component's start callback or a Spring bean's `start()` threw, or the refresh or "
					+ "a runner failed: [a failed start](#a-failed-start)";
			case UNKNOWN -> "a report read back named a reason this release does not know";
		};
	}

}
