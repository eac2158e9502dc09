package dev.lifecycle.core;

import java.util.Objects;

/**
 * One piece of a client's work a component's stop cut short: a call or request a grace
 * period or the component's budget cancelled, as the component named it
 * ({@link ComponentHandle#reportCut(String)}), or a thread the global ceiling found still
 * at work for the component, with what it did for it.
 *
 * @param work what was cut, e.g.
 * {@code orders.Orders/Export (unary, running for 2004 ms)} or, for the ceiling,
 * {@code thread "http-nio-8080-exec-1" opened a critical section
 * still open after 2004 ms}
 * @param byCeiling whether the global ceiling cut it, rather than the component's own
 * stop
 */
public record Cut(String work, boolean byCeiling) {

	private static final String CEILING = "cut by the global ceiling: ";

	/** Validates that the work is named. */
	public Cut {
		Objects.requireNonNull(work, "work");
	}

	/**
	 * As logs name it: the work, after {@code "cut by the global ceiling: "} when the
	 * ceiling cut it.
	 */
	@Override
	public String toString() {
		return this.byCeiling ? CEILING + this.work : this.work;
	}

	/**
	 * A cut as its {@link #toString()} names it, which is how version 1 of the report
	 * file wrote it.
	 */
	static Cut parse(String text) {
		return text.startsWith(CEILING) ? new Cut(text.substring(CEILING.length()), true) : new Cut(text, false);
	}

}
