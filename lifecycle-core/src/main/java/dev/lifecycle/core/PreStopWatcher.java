package dev.lifecycle.core;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches for the pre-stop file and runs an action once when it appears. A
 * {@link WatchService} on the parent directory gives sub-millisecond notice on Linux;
 * every wake-up (at most {@value #CHECK_INTERVAL_MS} ms apart) also checks for the file
 * directly, which covers events the watch service missed and directories that cannot be
 * watched at all.
 */
final class PreStopWatcher {

	static final long CHECK_INTERVAL_MS = 25;

	private static final Logger logger = LoggerFactory.getLogger(PreStopWatcher.class);

	private final Path file;

	private volatile boolean closed;

	private volatile @Nullable WatchService watchService;

	/** Set when a stale entry could not be removed at start. */
	private volatile @Nullable Stale stale;

	PreStopWatcher(Path file) {
		this.file = file;
	}

	/**
	 * Checks that what is at the path, if anything, can be a pre-stop file: the preStop
	 * hook creates an empty file (or directory). A file with content is someone's data (a
	 * database, a secret), and Lifecycle neither deletes it nor mistakes it for a request
	 * to shut down.
	 * @throws InvalidOptionException for {@code preStopFile} when the path holds data
	 */
	static void check(Path file) {
		BasicFileAttributes attributes = attributes(file);
		if (attributes == null || attributes.isDirectory()) {
			return;
		}
		if (!attributes.isRegularFile()) {
			throw new InvalidOptionException(null, "preStopFile", "(" + file + ") is a special file, not a pre-stop "
					+ "file; point it at a path of its own that the preStop hook creates");
		}
		if (attributes.size() > 0) {
			throw new InvalidOptionException(null, "preStopFile",
					"(" + file + ") holds a file with content (" + attributes.size()
							+ " bytes), not an empty pre-stop file; Lifecycle never deletes data, so "
							+ "point it at a path of its own that the preStop hook creates empty (touch)");
		}
	}

	/**
	 * Removes a stale entry left by an earlier run; it is never treated as a shutdown
	 * request. An entry younger than this JVM was created during its start-up (a preStop
	 * hook that ran while the application was still starting): it stays, and the watcher
	 * turns it into a shutdown at once. A stale entry that cannot be removed (an
	 * immutable file, a directory with something in it) is left, with an error in the
	 * log, and ignored: only an entry created in its place afterwards triggers.
	 * @throws InvalidOptionException when the path holds data, as {@link #check(Path)}
	 */
	void removeStaleFile() {
		check(this.file);
		BasicFileAttributes attributes = attributes(this.file);
		if (attributes == null) {
			return;
		}
		Instant modified = attributes.lastModifiedTime().toInstant();
		Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
		if (!modified.isBefore(jvmStart)) {
			logger.info("Lifecycle: pre-stop file {} was created during start-up; shutting down once started",
					this.file);
			return;
		}
		try {
			if (Files.deleteIfExists(this.file)) {
				logger.warn("Lifecycle: deleted a pre-stop file left from an earlier run at {}; "
						+ "it does not trigger a shutdown", this.file);
			}
		}
		catch (IOException | RuntimeException ex) {
			this.stale = new Stale(attributes.fileKey());
			logger.error(
					"Lifecycle: cannot remove the pre-stop {} left from an earlier run at {} ({}); ignoring it: "
							+ "only a pre-stop file created in its place triggers a shutdown. Remove it, or point "
							+ "lifecycle.pre-stop.path elsewhere",
					attributes.isDirectory() ? "directory" : "file", this.file, ex.toString());
		}
	}

	/**
	 * Whether the pre-stop file is there, and not the stale entry this start could not
	 * remove.
	 */
	private boolean appeared() {
		BasicFileAttributes attributes = attributes(this.file);
		Stale ignored = this.stale;
		if (attributes == null) {
			// The stale entry is gone: whatever appears now is new.
			this.stale = null;
			return false;
		}
		if (ignored == null) {
			return true;
		}
		return ignored.key() != null && !ignored.key().equals(attributes.fileKey());
	}

	private static @Nullable BasicFileAttributes attributes(Path file) {
		try {
			return Files.readAttributes(file, BasicFileAttributes.class);
		}
		catch (IOException ex) {
			return null;
		}
	}

	/**
	 * The stale entry being ignored, until the watch service reports a creation at the
	 * path, the path is seen empty, or (when the directory cannot be watched) an entry of
	 * another identity is there; with no file key it counts as there until one of the
	 * first two.
	 */
	private record Stale(@Nullable Object key) {
	}

	/** Watches until closed, and runs the action once if the file appears first. */
	void run(Runnable action) {
		this.watchService = openWatchService();
		try {
			while (!this.closed) {
				if (appeared()) {
					logger.info("Lifecycle: pre-stop file {} appeared", this.file);
					action.run();
					return;
				}
				waitForChange();
			}
		}
		catch (InterruptedException | ClosedWatchServiceException ex) {
			// Closed: stop watching.
		}
		finally {
			closeQuietly();
		}
	}

	private void waitForChange() throws InterruptedException {
		WatchService service = this.watchService;
		if (service == null) {
			Thread.sleep(CHECK_INTERVAL_MS);
			return;
		}
		WatchKey key = service.poll(CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS);
		if (key != null) {
			for (WatchEvent<?> event : key.pollEvents()) {
				if (event.kind() == StandardWatchEventKinds.ENTRY_CREATE
						&& this.file.getFileName().equals(event.context())) {
					// Created afresh, whatever the file system made of its identity: the
					// stale entry is gone.
					this.stale = null;
				}
			}
			if (!key.reset()) {
				logger.warn("Lifecycle: stopped watching {}; falling back to polling", this.file.getParent());
				closeQuietly();
			}
		}
	}

	private WatchService openWatchService() {
		Path directory = this.file.getParent();
		if (directory == null || !Files.isDirectory(directory)) {
			logger.info("Lifecycle: pre-stop directory {} does not exist; polling for {} every {} ms", directory,
					this.file, CHECK_INTERVAL_MS);
			return null;
		}
		try {
			WatchService service = FileSystems.getDefault().newWatchService();
			directory.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
			return service;
		}
		catch (IOException | UnsupportedOperationException ex) {
			logger.info("Lifecycle: cannot watch {} ({}); polling every {} ms", directory, ex.toString(),
					CHECK_INTERVAL_MS);
			return null;
		}
	}

	void close() {
		this.closed = true;
		closeQuietly();
	}

	private void closeQuietly() {
		WatchService service = this.watchService;
		this.watchService = null;
		if (service != null) {
			try {
				service.close();
			}
			catch (IOException ex) {
				// Nothing useful to do.
			}
		}
	}

}
