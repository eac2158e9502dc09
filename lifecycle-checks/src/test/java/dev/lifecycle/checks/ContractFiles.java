package dev.lifecycle.checks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The files in which a part of the contract declared once in code (the exit codes, the
 * signals) must not be listed again: pages, sources and their Javadoc, property
 * descriptions, scripts, manifests and CI steps; and the places of a file that are read
 * as one.
 */
final class ContractFiles {

	/**
	 * Files that may list what they like: results measured in the past, kept as they were
	 * measured.
	 */
	private static final String HISTORY = "lifecycle-benchmarks/results/";

	private static final Pattern LISTED = Pattern.compile("\\.(md|java|ya?ml|json|sh|properties)$");

	private ContractFiles() {
	}

	/** Every such file but the given ones (the declaration, its test), in order. */
	static List<Path> except(Set<String> declarations) {
		return MarkdownFiles.files((file) -> Files.isRegularFile(file)
				&& (LISTED.matcher(file.getFileName().toString()).find() || MarkdownFiles.name(file).startsWith(".ci/"))
				&& !MarkdownFiles.name(file).startsWith(HISTORY) && !declarations.contains(MarkdownFiles.name(file)));
	}

	/**
	 * The places of a text that are read as one: a paragraph, a table row or a list item
	 * of a page; three lines in a row of anything else (a comment, a Javadoc, a rule).
	 */
	static List<String> places(String text, boolean markdown) {
		List<String> places = new ArrayList<>();
		if (markdown) {
			for (String paragraph : text.split("\\n\\s*\\n")) {
				if (paragraph.lines().allMatch((line) -> line.startsWith("|") || line.isBlank())) {
					places.add(paragraph.strip());
					places.addAll(paragraph.lines().toList());
				}
				else {
					places.addAll(List.of(paragraph.split("\\n(?=\\s*[-*] |```)")));
				}
			}
			return places;
		}
		List<String> lines = text.lines().toList();
		for (int i = 0; i < lines.size(); i++) {
			places.add(String.join("\n", lines.subList(i, Math.min(lines.size(), i + 3))));
		}
		return places;
	}

}
