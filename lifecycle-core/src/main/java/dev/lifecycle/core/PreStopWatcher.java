package dev.lifecycle.core;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches for the pre-stop file and runs the action once when it appears. A {@link WatchService}
 * on the parent directory gives sub-millisecond notice on Linux; every wake-up (at most
 * {@value #CHECK_INTERVAL_MS} ms apart) also checks for the file directly, which covers events the
 * watch service missed and directories that cannot be watched at all.
 */
final class PreStopWatcher {

	static final long CHECK_INTERVAL_MS = 25;

	private static final Logger logger = LoggerFactory.getLogger(PreStopWatcher.class);

	private final Path file;

	private final Runnable action;

	private volatile boolean closed;

	private volatile WatchService watchService;

	PreStopWatcher(Path file, Runnable action) {
		this.file = file;
		this.action = action;
	}

	/**
	 * Deletes a stale file left by an earlier run; it is never treated as a shutdown request. A
	 * file younger than this JVM was created during its start-up (a preStop hook that ran while the
	 * application was still starting): it stays, and the watcher turns it into a shutdown at once.
	 */
	void removeStaleFile() {
		try {
			if (!Files.exists(this.file)) {
				return;
			}
			Instant modified = Files.getLastModifiedTime(this.file).toInstant();
			Instant jvmStart = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
			if (!modified.isBefore(jvmStart)) {
				logger.info("Lifecycle: pre-stop file {} was created during start-up; shutting down once started",
						this.file);
				return;
			}
			if (Files.deleteIfExists(this.file)) {
				logger.warn("Lifecycle: deleted a pre-stop file left from an earlier run at {}; "
						+ "it does not trigger a shutdown", this.file);
			}
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: could not delete stale pre-stop file {}: {}", this.file, ex.toString());
		}
	}

	void run() {
		this.watchService = openWatchService();
		try {
			while (!this.closed) {
				if (Files.exists(this.file)) {
					logger.info("Lifecycle: pre-stop file {} appeared", this.file);
					this.action.run();
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
			key.pollEvents();
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
