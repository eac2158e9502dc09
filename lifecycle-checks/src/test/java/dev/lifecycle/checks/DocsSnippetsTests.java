package dev.lifecycle.checks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java block in the repository's Markdown is a tagged region of a source file that
 * a test compiles and runs, so the manual cannot show code that does not build or does
 * not do what the text says. A block is introduced by
 * {@code <!-- snippet: path/To/Source.java#tag -->} on the line before its fence; the
 * region is what lies between {@code // tag::tag[]} and {@code // end::tag[]}, dedented,
 * with each leading tab shown as four spaces. Run with {@code -Ddocs.update=true} to
 * rewrite the blocks from the sources.
 */
class DocsSnippetsTests {

	private static final Pattern BLOCK = Pattern.compile(
			"(?:<!-- snippet: (?<source>[^#\\s]+)#(?<tag>[\\w-]+) -->\\n)?```java\\n(?<body>.*?)```", Pattern.DOTALL);

	@Test
	void everyJavaBlockInTheDocsIsTheTaggedRegionOfATestedSource() throws IOException {
		boolean update = Boolean.getBoolean("docs.update");
		List<String> problems = new ArrayList<>();
		int blocks = 0;
		for (Path file : MarkdownFiles.all()) {
			String text = MarkdownFiles.read(file);
			Matcher block = BLOCK.matcher(text);
			StringBuilder rewritten = new StringBuilder();
			while (block.find()) {
				blocks++;
				String where = MarkdownFiles.name(file) + " line " + line(text, block.start());
				if (block.group("source") == null) {
					problems
						.add(where + ": a ```java block without a '<!-- snippet: <source>#<tag> -->' line above it");
					continue;
				}
				String expected = region(block.group("source"), block.group("tag"), where, problems);
				if (expected == null) {
					continue;
				}
				if (!expected.equals(block.group("body"))) {
					problems.add(where + ": differs from " + block.group("source") + "#" + block.group("tag")
							+ " (run the docs tests with -Ddocs.update=true to copy the source into the docs)");
					String replacement = "<!-- snippet: " + block.group("source") + "#" + block.group("tag")
							+ " -->\n```java\n" + expected + "```";
					block.appendReplacement(rewritten, Matcher.quoteReplacement(replacement));
				}
			}
			if (update && !rewritten.isEmpty()) {
				block.appendTail(rewritten);
				Files.writeString(file, rewritten.toString());
			}
		}
		assertThat(blocks).as("Java blocks found in the docs").isPositive();
		if (!update) {
			assertThat(problems).isEmpty();
		}
	}

	private static String region(String source, String tag, String where, List<String> problems) {
		Path file = MarkdownFiles.ROOT.resolve(source);
		if (!Files.isRegularFile(file)) {
			problems.add(where + ": " + source + " does not exist");
			return null;
		}
		List<String> lines = MarkdownFiles.read(file).lines().toList();
		int start = -1;
		int end = -1;
		for (int i = 0; i < lines.size(); i++) {
			if (lines.get(i).strip().equals("// tag::" + tag + "[]")) {
				start = i;
			}
			else if (lines.get(i).strip().equals("// end::" + tag + "[]")) {
				end = i;
			}
		}
		if (start < 0 || end < start) {
			problems.add(where + ": no '// tag::" + tag + "[]' ... '// end::" + tag + "[]' in " + source);
			return null;
		}
		List<String> body = lines.subList(start + 1, end)
			.stream()
			.filter((line) -> !line.strip().matches("// (tag|end)::[\\w-]+\\[\\]"))
			.toList();
		int indent = body.stream()
			.filter((line) -> !line.isBlank())
			.mapToInt(DocsSnippetsTests::leadingTabs)
			.min()
			.orElse(0);
		StringBuilder out = new StringBuilder();
		for (String line : body) {
			if (line.isBlank()) {
				out.append('\n');
				continue;
			}
			int tabs = leadingTabs(line);
			out.append("    ".repeat(tabs - indent)).append(line.substring(tabs)).append('\n');
		}
		return out.toString();
	}

	private static int leadingTabs(String line) {
		int tabs = 0;
		while (tabs < line.length() && line.charAt(tabs) == '\t') {
			tabs++;
		}
		return tabs;
	}

	private static int line(String text, int offset) {
		return (int) text.substring(0, offset).chars().filter((c) -> c == '\n').count() + 1;
	}

}
