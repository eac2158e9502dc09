package dev.lifecycle.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file that exists while the process runs and is removed when a shutdown sequence finishes
 * normally. Finding it at start means the previous process ended without finishing a sequence
 * (SIGKILL, OOM kill, forced exit, global ceiling), which is otherwise invisible because its counters died with it.
 */
final class RunMarker {

	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private final Path file;

	RunMarker(Path file) {
		this.file = file;
	}

	/**
	 * Writes the marker and reports whether one was already there.
	 * @return {@code true} if a previous process left its marker behind
	 */
	boolean acquire() {
		boolean previous = Files.exists(this.file);
		if (previous) {
			String content = read();
			logger.warn("Lifecycle: the previous process did not finish its shutdown (run marker {} found: {})",
					this.file, content);
		}
		try {
			Path parent = this.file.getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			Files.writeString(this.file, "pid=" + ProcessHandle.current().pid() + " started=" + Instant.now() + "\n");
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot write run marker {}: {}", this.file, ex.toString());
		}
		return previous;
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
