package dev.lifecycle.checks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.Set;
import java.util.stream.Stream;

/** The repository's Markdown files, outside build output and installed packages. */
final class MarkdownFiles {

	static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", ".idea", ".mvn");

	private MarkdownFiles() {
	}

	static List<Path> all() {
		return files((file) -> file.toString().endsWith(".md") && ROOT.relativize(file).getNameCount() > 0);
	}

	/**
	 * The repository's files that the filter takes, in order, outside build output and
	 * tool directories.
	 */
	static List<Path> files(Predicate<Path> filter) {
		try (Stream<Path> files = Files.walk(ROOT)) {
			return files.filter(filter).filter((file) -> {
				for (Path part : ROOT.relativize(file)) {
					if (SKIPPED.contains(part.toString())) {
						return false;
					}
				}
				return true;
			}).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String name(Path file) {
		return ROOT.relativize(file).toString();
	}

}
