package dev.lifecycle.scenarios;

import java.util.ArrayList;
import java.util.List;

/**
 * The manual's support table, generated from the scenario matrix: a row per promise, a
 * column per stack, and in each cell the thread models whose scenario on that stack
 * checks the promise.
 */
final class SupportTable {

	static final String BEGIN = "<!-- support table: generated from the scenario matrix (SupportTableTests); do not edit -->";

	static final String END = "<!-- end of the generated support table -->";

	private SupportTable() {
	}

	static String markdown() {
		List<Scenario> scenarios = Scenario.all();
		StringBuilder table = new StringBuilder();
		table.append("| Promise |");
		for (Stack stack : Stack.values()) {
			table.append(' ').append(stack.title()).append(" |");
		}
		table.append("\n|---|");
		table.append("---|".repeat(Stack.values().length)).append('\n');
		for (Promise promise : Promise.values()) {
			table.append("| ").append(promise.description()).append(" |");
			for (Stack stack : Stack.values()) {
				List<String> threads = new ArrayList<>();
				for (Scenario scenario : scenarios) {
					if (scenario.stack() == stack && stack.promises().contains(promise)) {
						threads.add(scenario.threads().label());
					}
				}
				table.append(' ').append(threads.isEmpty() ? "—" : "✓ " + String.join(", ", threads)).append(" |");
			}
			table.append('\n');
		}
		return table.toString();
	}

	/** The page with its generated part replaced by {@code table}. */
	static String replace(String page, String table) {
		int begin = page.indexOf(BEGIN);
		int end = page.indexOf(END);
		if (begin < 0 || end < begin) {
			throw new IllegalStateException("the page has no " + BEGIN + " ... " + END + " part");
		}
		return page.substring(0, begin + BEGIN.length()) + "\n" + table + page.substring(end);
	}

	/** The generated part of the page, as it is. */
	static String current(String page) {
		int begin = page.indexOf(BEGIN);
		int end = page.indexOf(END);
		return (begin < 0 || end < begin) ? "" : page.substring(begin + BEGIN.length() + 1, end);
	}

}
