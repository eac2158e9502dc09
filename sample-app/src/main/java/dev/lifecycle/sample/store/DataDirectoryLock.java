package dev.lifecycle.sample.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.context.logging.LoggingApplicationListener;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.GenericApplicationListener;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;

/**
 * One process per data directory: as soon as the configuration is known (before any bean,
 * before the database is opened), the process takes an exclusive lock on
 * {@code <data-dir>/sample-app.lock} and holds it until it exits. A second process on the
 * same directory fails its start with the holder's pid. The lock is the operating
 * system's ({@code fcntl}), so a process that dies in any way, {@code SIGKILL} included,
 * releases it at once; the file itself stays and means nothing when unlocked.
 *
 * <p>
 * Registered in {@code META-INF/spring.factories}, ordered right after logging is
 * initialised.
 */
public final class DataDirectoryLock implements GenericApplicationListener {

	/** The lock file's name inside the data directory. */
	public static final String FILE_NAME = "sample-app.lock";

	private static final Logger logger = LoggerFactory.getLogger(DataDirectoryLock.class);

	/**
	 * Held for the life of the process; the OS releases the lock when the process ends.
	 */
	private static FileLock held;

	@Override
	public boolean supportsEventType(ResolvableType eventType) {
		return ApplicationEnvironmentPreparedEvent.class.isAssignableFrom(eventType.toClass());
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ApplicationEnvironmentPreparedEvent prepared) {
			acquire(dataDirectory(prepared.getEnvironment()));
		}
	}

	@Override
	public int getOrder() {
		return LoggingApplicationListener.DEFAULT_ORDER + 1;
	}

	static Path dataDirectory(Environment environment) {
		return Path.of(environment.getProperty("sample.data-dir", "./data")).toAbsolutePath().normalize();
	}

	/**
	 * Takes the lock of a data directory for this process.
	 * @param directory the data directory; created if missing
	 * @throws DataDirectoryInUseException if another process holds it
	 */
	static synchronized void acquire(Path directory) {
		Path file = directory.resolve(FILE_NAME);
		FileChannel channel = null;
		try {
			Files.createDirectories(directory);
			channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
					StandardOpenOption.WRITE);
			FileLock lock;
			try {
				lock = channel.tryLock();
			}
			catch (OverlappingFileLockException ex) {
				// This process holds it already (a second application context in the same
				// JVM).
				channel.close();
				return;
			}
			if (lock == null) {
				String holder = readHolder(file);
				channel.close();
				throw new DataDirectoryInUseException(directory, file, holder);
			}
			held = lock;
			recordHolder(channel);
			logger.info("Data directory {} locked for this process (pid {}) through {}", directory,
					ProcessHandle.current().pid(), file);
		}
		catch (IOException ex) {
			closeQuietly(channel);
			throw new IllegalStateException("Cannot lock the data directory " + directory + " through " + file + ": "
					+ ex.getMessage() + " (check that sample.data-dir is a writable directory)", ex);
		}
	}

	/**
	 * Writes our pid into the file, for the message of a process that finds it locked;
	 * best effort.
	 */
	private static void recordHolder(FileChannel channel) {
		try {
			channel.truncate(0);
			channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
					0);
		}
		catch (IOException ex) {
			// A full disk must not stop the start: the lock is what matters, not the pid
			// in the file.
		}
	}

	private static String readHolder(Path file) {
		try {
			String text = Files.readString(file, StandardCharsets.US_ASCII).trim();
			return text.matches("\\d+") ? text : null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	private static void closeQuietly(FileChannel channel) {
		if (channel != null) {
			try {
				channel.close();
			}
			catch (IOException ignored) {
				// nothing to do
			}
		}
	}

	/** Another process works on this data directory. */
	public static final class DataDirectoryInUseException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final Path directory;

		private final String holder;

		DataDirectoryInUseException(Path directory, Path file, String holder) {
			super("The data directory " + directory + " is in use by another process"
					+ ((holder != null) ? " (pid " + holder + ")" : "") + ": " + file + " is locked");
			this.directory = directory;
			this.holder = holder;
		}

		/** The data directory. */
		public Path directory() {
			return this.directory;
		}

		/** The pid recorded by the process holding the lock, or null if unknown. */
		public String holder() {
			return this.holder;
		}

	}

}
