package dev.lifecycle.core.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file that exists while the process runs and is removed when a shutdown sequence
 * finishes normally. Finding it at start means the previous process ended without
 * finishing a sequence (SIGKILL, OOM kill, forced exit, global ceiling), which is
 * otherwise invisible because its counters died with it.
 *
 * <p>
 * The marker is Lifecycle's own: it is written only where nothing is, or over a marker in
 * its own format, and deleted only while it still is one. A path that holds anything else
 * (a file of another kind, a directory, a link) is refused with an
 * {@link InvalidOptionException} for {@code runMarker}, and nothing of a file but a
 * marker's own two fields is ever logged.
 */
@Internal
public final class RunMarker {

	private static final Logger logger = LoggerFactory.getLogger(RunMarker.class);

	/**
	 * The whole of a marker: the fields this writes, and nothing else. A marker written
	 * before instances were named has no {@code instance} field.
	 */
	private static final Pattern FORMAT = Pattern
		.compile("pid=(\\d{1,19}) started=([0-9TZ:.+-]{1,64})(?: instance=([A-Za-z0-9._-]{1,63}/[0-9a-f]{16}))?\\n?");

	/** Longer than any marker; a longer file is not one and is not read. */
	private static final int MAX_BYTES = 256;

	private final Path file;

	/**
	 * This process's identity: its host's name (a pod's name on Kubernetes) and a random
	 * part, so that two replicas whose markers have the same path on their own disks, and
	 * two processes of one host, never share it.
	 */
	private final String instance = newInstance();

	/** What this process writes into its marker: its pid, start time and identity. */
	private final String content = "pid=" + ProcessHandle.current().pid() + " started=" + Instant.now() + " instance="
			+ this.instance;

	public RunMarker(Path file) {
		this.file = file;
	}

	/**
	 * Checks that the path is free for a marker: nothing is there, or a marker is.
	 * @throws InvalidOptionException for {@code runMarker} when something else is there
	 */
	public static void check(Path file) {
		read(file);
	}

	/**
	 * Writes the marker and reports what a previous process left behind, if it did. A
	 * marker whose owner is still running (another instance given the same path) is
	 * neither taken over nor reported: this process then keeps no marker.
	 * @return the previous process's marker content, empty if it finished its shutdown;
	 * or that the marker belongs to a live process
	 * @throws InvalidOptionException for {@code runMarker} when the path holds something
	 * else
	 */
	public Acquired acquire() {
		String previous = read(this.file);
		if (previous != null && ownerIsAlive(previous)) {
			logger.warn("Lifecycle: run marker {} belongs to a process that is still running ({}): another instance "
					+ "uses the same path. This process keeps no run marker and writes no shutdown report; give each "
					+ "instance its own lifecycle.run-marker.path", this.file, previous);
			return new Acquired(false, null);
		}
		if (previous != null) {
			logger.warn("Lifecycle: the previous process did not finish its shutdown (run marker {} found: {})",
					this.file, previous);
		}
		try {
			Path parent = this.file.getParent();
			if (parent != null) {
				Files.createDirectories(parent);
			}
			byte[] bytes = (this.content + "\n").getBytes(StandardCharsets.UTF_8);
			if (previous == null) {
				// Only where nothing is: a file that appeared since the check is not
				// overwritten.
				Files.write(this.file, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
			}
			else {
				Files.write(this.file, bytes, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
						LinkOption.NOFOLLOW_LINKS);
			}
		}
		catch (FileAlreadyExistsException ex) {
			logger.warn("Lifecycle: not writing run marker {}: something appeared there as this process started",
					this.file);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot write run marker {}: {}", this.file, ex.toString());
		}
		return new Acquired(true, previous);
	}

	/**
	 * Whether the process that wrote a marker is another one still running: its pid is
	 * alive and that process began before the marker was written (a pid reused by a later
	 * process is not the owner). This process's own pid is never a live owner: the marker
	 * is then a previous manager's in this JVM, or a previous container's that had the
	 * same pid. When the start time cannot be known the process is taken to be the owner,
	 * so that a live owner is never reported as crashed.
	 */
	static boolean ownerIsAlive(String content) {
		Matcher matcher = FORMAT.matcher(content);
		if (!matcher.matches()) {
			return false;
		}
		try {
			long pid = Long.parseLong(matcher.group(1));
			if (pid == ProcessHandle.current().pid()) {
				return false;
			}
			Instant written = Instant.parse(matcher.group(2));
			Optional<ProcessHandle> handle = ProcessHandle.of(pid);
			if (handle.isEmpty() || !handle.get().isAlive()) {
				return false;
			}
			Optional<Instant> began = handle.get().info().startInstant();
			// The clock's granularity for a process's start is coarse (jiffies): allow a
			// second.
			return began.isEmpty() || !began.get().isAfter(written.plusSeconds(1));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * What {@link #acquire()} found.
	 *
	 * @param owned whether this process now holds the marker
	 * @param previous what a previous process left in it, or {@code null}
	 */
	public record Acquired(boolean owned, @Nullable String previous) {
	}

	public String content() {
		return this.content;
	}

	/** This process's identity, as its marker records it. */
	public String instance() {
		return this.instance;
	}

	/**
	 * The identity a marker's content records, or {@code null} for a marker written
	 * before instances were named (or for anything that is not a marker's content).
	 */
	static @Nullable String instanceOf(@Nullable String content) {
		if (content == null) {
			return null;
		}
		Matcher matcher = FORMAT.matcher(content);
		return matcher.matches() ? matcher.group(3) : null;
	}

	private static String newInstance() {
		String host = System.getenv("HOSTNAME");
		if (host == null || host.isBlank()) {
			host = System.getenv("COMPUTERNAME");
		}
		if (host == null || host.isBlank()) {
			host = "host";
		}
		host = host.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "_");
		String random = UUID.randomUUID().toString().replace("-", "").substring(0, 16);
		return host.substring(0, Math.min(63, host.length())) + "/" + random;
	}

	public Path file() {
		return this.file;
	}

	/** Deletes the marker, if it is still this process's own. */
	public void release() {
		try {
			if (this.content.equals(readQuietly(this.file))) {
				Files.deleteIfExists(this.file);
			}
			else if (Files.exists(this.file, LinkOption.NOFOLLOW_LINKS)) {
				logger.warn("Lifecycle: run marker {} is no longer this process's; leaving it", this.file);
			}
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: cannot delete run marker {}: {}", this.file, ex.toString());
		}
	}

	private static @Nullable String readQuietly(Path file) {
		try {
			return read(file);
		}
		catch (InvalidOptionException ex) {
			return null;
		}
	}

	/**
	 * A marker's content without its line end, or {@code null} when nothing is there.
	 * @throws InvalidOptionException for {@code runMarker} when something else is there
	 */
	private static @Nullable String read(Path file) {
		if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
			return null;
		}
		if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
			throw notOurs(file, "is a directory");
		}
		if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
			throw notOurs(file, "is not a regular file (a link or a special file)");
		}
		byte[] head;
		try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
			head = in.readNBytes(MAX_BYTES + 1);
		}
		catch (IOException ex) {
			throw notOurs(file, "cannot be read (" + ex.getClass().getSimpleName() + ")");
		}
		Matcher matcher = FORMAT.matcher(new String(head, StandardCharsets.ISO_8859_1));
		if (head.length > MAX_BYTES || !matcher.matches()) {
			throw notOurs(file, "holds a file that is not a Lifecycle run marker"
					+ ((head.length > MAX_BYTES) ? " (more than " + MAX_BYTES + " bytes)" : ""));
		}
		return "pid=" + matcher.group(1) + " started=" + matcher.group(2)
				+ ((matcher.group(3) != null) ? " instance=" + matcher.group(3) : "");
	}

	private static InvalidOptionException notOurs(Path file, String what) {
		return new InvalidOptionException(null, "runMarker", "(" + file.toAbsolutePath() + ") " + what
				+ "; Lifecycle writes its run marker only where nothing is or over a marker of its own, and never "
				+ "overwrites or deletes anything else");
	}

}
