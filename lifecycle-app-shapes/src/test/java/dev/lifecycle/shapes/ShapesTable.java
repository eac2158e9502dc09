package dev.lifecycle.shapes;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The manual's table of proven application shapes, generated from {@link Shape} and the
 * ways {@link ApplicationShapesTests} and {@link ShapesProcessTests} run them.
 */
final class ShapesTable {

	static final String BEGIN = "<!-- shapes table: generated from the shapes module (ShapesTableTests); do not edit -->";

	static final String END = "<!-- end of the generated shapes table -->";

	private ShapesTable() {
	}

	static String markdown() {
		String header = "| Shape | " + Arrays.stream(ApplicationShapesTests.Variant.values())
			.map(ApplicationShapesTests.Variant::title)
			.collect(Collectors.joining(" | ")) + " | a real JVM, SIGTERM |\n";
		String rule = "|---|" + "---|".repeat(ApplicationShapesTests.Variant.values().length + 1) + "\n";
		String rows = Arrays.stream(Shape.values())
			.map((shape) -> "| " + shape.description() + " | "
					+ "✓ | ".repeat(ApplicationShapesTests.Variant.values().length) + "✓ |\n")
			.collect(Collectors.joining());
		return header + rule + rows;
	}

	/** The generated table in the page's text, between its markers. */
	static String current(String page) {
		int begin = page.indexOf(BEGIN);
		int end = page.indexOf(END);
		if (begin < 0 || end < begin) {
			throw new IllegalStateException("docs/support.md has no shapes table markers");
		}
		return page.substring(begin + BEGIN.length() + 1, end);
	}

	static String replace(String page, String table) {
		return page.substring(0, page.indexOf(BEGIN) + BEGIN.length() + 1) + table + page.substring(page.indexOf(END));
	}

}
