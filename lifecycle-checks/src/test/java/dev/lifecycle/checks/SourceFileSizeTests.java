package dev.lifecycle.checks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No main source file of any module is over 500 lines: a file that grows past it holds
 * more than one job and is split along its concerns. Test sources are free of the rule.
 */
class SourceFileSizeTests {

	private static final int MAX_LINES = 500;

	/** The reactor's root: every module is a directory below it. */
	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Set<String> SKIPPED = Set.of(".git", "target", "node_modules", ".idea", ".mvn");

	@Test
	void noMainSourceFileIsOverFiveHundredLines() throws IOException {
		List<Path> sources = mainSources();
		assertThat(sources).as("main sources under %s", ROOT).hasSizeGreaterThan(100);
		List<String> over = new ArrayList<>();
		for (Path source : sources) {
			long lines = lines(source);
			if (lines > MAX_LINES) {
				over.add(ROOT.relativize(source) + " (" + lines + " lines)");
			}
		}
		assertThat(over).as("main source files over %d lines; split each along its concerns", MAX_LINES).isEmpty();
	}

	/**
	 * Every {@code .java} file under a {@code src/main} directory, of every module at any
	 * depth.
	 */
	private static List<Path> mainSources() throws IOException {
		List<Path> sources = new ArrayList<>();
		Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
				Path name = directory.getFileName();
				return (name != null && SKIPPED.contains(name.toString())) ? FileVisitResult.SKIP_SUBTREE
						: FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
				Path relative = ROOT.relativize(file);
				if (file.toString().endsWith(".java") && isUnderSrcMain(relative)) {
					sources.add(file);
				}
				return FileVisitResult.CONTINUE;
			}

		});
		sources.sort(null);
		return sources;
	}

	private static boolean isUnderSrcMain(Path relative) {
		for (int i = 0; i + 1 < relative.getNameCount(); i++) {
			if (relative.getName(i).toString().equals("src") && relative.getName(i + 1).toString().equals("main")) {
				return true;
			}
		}
		return false;
	}

	/** Every line, a last one without a line break included. */
	private static long lines(Path source) {
		try (Stream<String> lines = Files.lines(source)) {
			return lines.count();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
