package dev.lifecycle.core;

/**
 * How a component's life ended. Once recorded an outcome never changes: a component that
 * finishes after its budget expired stays {@link #TIMEOUT}.
 */
public enum Outcome {

	/**
	 * It finished its work: during shutdown, or after {@code workCompleted()} in normal
	 * operation.
	 */
	COMPLETED("completed"),

	/** Its graceful budget or the global ceiling expired before it finished. */
	TIMEOUT("timeout"),

	/**
	 * It ended abnormally: it threw, signalled a failure, its stop callback threw, or it
	 * ended during normal operation without having declared its work completed.
	 */
	DIED("died"),

	/**
	 * Only in a report read back: an outcome a newer release wrote, or none at all. The
	 * engine never gives it to a component.
	 */
	UNKNOWN("unknown");

	private final String label;

	Outcome(String label) {
		this.label = label;
	}

	/** The value used for the {@code result} metric label and in logs. */
	public String label() {
		return this.label;
	}

}
