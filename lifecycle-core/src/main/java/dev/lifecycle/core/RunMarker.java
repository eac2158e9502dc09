package dev.lifecycle.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file that exists while the process runs and is removed when a shutdown sequence finishes
 * normally. Finding it at start means the previous process ended without finishing a sequence
 * (SIGKILL, OOM kill, forced exit, global ceiling), which is otherwise invisible because its counters died with it.
 */
final class RunMarker {

	private static final Logger logger = LoggerFactory.getLogger(RunMarker.class);

	private final Path file;

	/** What this process writes into its marker: its pid and start time. */
	private final String content = "pid=" + ProcessHandle.current().pid() + " started=" + Instant.now();

	RunMarker(Path file) {
		this.file = file;
	}

	/**
	 * Writes the marker and reports what a previous process left behind, if it did.
	 * @return the previous process's marker content, empty if it finished its shutdown
	 */
	Optional<String> acquire() {
		String content = null;
		if (Files.exists(this.file)) {
			content = read();
			logger.warn("Lifecycle: the previous process did not finish its shutdown (run marker {} found: {})",
					this.file, content);
		}
		try {
			Path parent = this.file.getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			Files.writeString(this.file, this.content + "\n");
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot write run marker {}: {}", this.file, ex.toString());
		}
		return Optional.ofNullable(content);
	}

	String content() {
		return this.content;
	}

	Path file() {
		return this.file;
	}

	void release() {
		try {
			Files.deleteIfExists(this.file);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot delete run marker {}: {}", this.file, ex.toString());
		}
	}

	private String read() {
		try {
			return Files.readString(this.file).trim();
		}
		catch (IOException ex) {
			return "unreadable";
		}
	}

}
