package dev.lifecycle.checks;

import dev.lifecycle.core.ExitCodes;

/**
 * The manual's table of exit codes, generated from {@link ExitCodes#declared()}, and the
 * markers that hold it in its page.
 */
final class ExitCodeTable {

	/** The page that holds the table. */
	static final String PAGE = "docs/concepts.md";

	static final String BEGIN = "<!-- exit codes: generated from dev.lifecycle.core.ExitCodes (ExitCodeTableTests); "
			+ "do not edit -->";

	static final String END = "<!-- end of the generated exit codes -->";

	private static final GeneratedPart PART = new GeneratedPart(PAGE, BEGIN, END);

	private ExitCodeTable() {
	}

	/** The table as Markdown, one row per declared code, in the declared order. */
	static String markdown() {
		StringBuilder table = new StringBuilder();
		table.append("Lifecycle's own codes, from the least to the most severe (when two apply, the later one wins),")
			.append(" then the codes the JVM or Kubernetes gives:\n\n");
		table.append("| code | name | meaning | when |\n|---|---|---|---|\n");
		for (ExitCodes.Code code : ExitCodes.declared()) {
			table.append("| ")
				.append(code.code())
				.append(" | ")
				.append(code.name())
				.append(" | ")
				.append(code.meaning())
				.append(" | ")
				.append(code.when())
				.append(" |\n");
		}
		return table.toString();
	}

	/** The page with its table replaced by the given one. */
	static String replace(String page, String table) {
		return PART.replace(page, table);
	}

	/** The table the page holds now, empty when it has none. */
	static String current(String page) {
		return PART.current(page);
	}

	/** The page without its generated table. */
	static String outside(String page) {
		return PART.outside(page);
	}

}
