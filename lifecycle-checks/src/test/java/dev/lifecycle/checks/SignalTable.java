package dev.lifecycle.checks;

import dev.lifecycle.core.ShutdownSignal;

/**
 * The manual's table of signals, generated from {@link ShutdownSignal}, and the markers
 * that hold it in its page.
 */
final class SignalTable {

	/** The page that holds the table. */
	static final String PAGE = "docs/concepts.md";

	static final GeneratedPart PART = new GeneratedPart(PAGE,
			"<!-- signals: generated from dev.lifecycle.core.ShutdownSignal (SignalTableTests); do not edit -->",
			"<!-- end of the generated signals -->");

	private SignalTable() {
	}

	/**
	 * The tables as Markdown: one row per declared signal, then one per moment a signal
	 * can arrive at, in the declared order.
	 */
	static String markdown() {
		StringBuilder table = new StringBuilder();
		table.append("Lifecycle traps these signals, and treats them alike:\n\n");
		table.append("| signal | number | sent by |\n|---|---|---|\n");
		for (ShutdownSignal signal : ShutdownSignal.values()) {
			table.append("| ")
				.append(signal.signalName())
				.append(" | ")
				.append(signal.number())
				.append(" | ")
				.append(signal.sentBy())
				.append(" |\n");
		}
		table.append("\nWhat a signal does depends only on when it arrives:\n\n");
		table.append("| signal | what it does |\n|---|---|\n");
		for (ShutdownSignal.Arrival arrival : ShutdownSignal.arrivals()) {
			table.append("| ").append(arrival.when()).append(" | ").append(arrival.effect()).append(" |\n");
		}
		return table.toString();
	}

}
