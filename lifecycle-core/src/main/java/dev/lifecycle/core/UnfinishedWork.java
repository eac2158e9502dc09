package dev.lifecycle.core;

import java.util.Objects;

/**
 * One piece of work a shutdown left for a later run: what a component said it left
 * unfinished, or that its budget or the global ceiling cut it ({@code cut at its budget},
 * {@code cut by the global ceiling}).
 *
 * @param component the component that left it
 * @param work what was left, as the component or the engine named it
 */
public record UnfinishedWork(String component, String work) {

	/** Validates that both parts are present. */
	public UnfinishedWork {
		Objects.requireNonNull(component, "component");
		Objects.requireNonNull(work, "work");
	}

	/** As logs name it: {@code "orders: 3 orders not acknowledged"}. */
	@Override
	public String toString() {
		return this.component + ": " + this.work;
	}

}
