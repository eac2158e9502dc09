package dev.lifecycle.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the shutdown report next to the run marker as the sequence goes (at initiation, after
 * every step, as components end and at the end), each write replacing the file atomically: a
 * SIGKILL at any moment leaves a whole report of the timeline up to that point, because after one
 * nothing else would. Reports are numbered, never dated, so a wrong clock cannot make an old one
 * look newest; only files that hold a report are replaced or deleted.
 */
final class ShutdownRecorder implements LifecycleListener {

	static final String SCHEMA = "dev.lifecycle/shutdown-report";

	static final int VERSION = 1;

	static final long COMPONENT_WRITE_INTERVAL_MS = 200;

	static final int MAX_COMPONENTS = 2000;

	static final int MAX_DIAGNOSTICS_CHARS = 64 * 1024;

	static final String IN_PROGRESS = "in-progress";

	static final String COMPLETED = "completed";

	static final String CEILING = "ceiling";

	static final String FORCED = "forced";

	/** Larger than any report this writes (its parts are bounded); a larger file is not read. */
	private static final long MAX_REPORT_BYTES = 16L * 1024 * 1024;

	/** How long a forced exit waits for a write under way before it records itself anyway. */
	private static final long FORCED_WAIT_MS = 500;

	/** Digits of the sequence number in a report's name, so names also sort in order. */
	private static final int SEQUENCE_DIGITS = 12;

	private static final Logger logger = LoggerFactory.getLogger(ShutdownRecorder.class);

	private final Path directory;

	private final String base;

	private final String serviceName;

	private final String run;

	private final int keep;

	private final @Nullable String applicationVersion;

	private final ReentrantLock lock = new ReentrantLock();

	private final Map<String, @Nullable Object> report = new LinkedHashMap<>();

	private final List<Map<String, @Nullable Object>> steps = new ArrayList<>();

	private final List<Map<String, @Nullable Object>> components = new ArrayList<>();

	private long initiatedAt;

	private long lastWrite;

	private @Nullable Path file;

	ShutdownRecorder(Path marker, String serviceName, String run, int keep, @Nullable String applicationVersion) {
		this.directory = (marker.toAbsolutePath().getParent() != null) ? marker.toAbsolutePath().getParent()
				: Path.of(".");
		this.base = base(marker);
		this.serviceName = serviceName;
		this.run = run;
		this.keep = keep;
		this.applicationVersion = applicationVersion;
	}

	private static String base(Path marker) {
		String name = marker.getFileName().toString();
		return name.endsWith(".running") ? name.substring(0, name.length() - ".running".length()) : name;
	}

	// ---- writing -------------------------------------------------------------------------------

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.lock.lock();
		try {
			this.initiatedAt = System.nanoTime();
			Instant now = Instant.now();
			long sequence = nextSequence(this.directory, this.base);
			this.file = this.directory.resolve(name(this.base, sequence));
			this.report.put("schema", SCHEMA);
			this.report.put("version", VERSION);
			this.report.put("sequence", sequence);
			this.report.put("service", this.serviceName);
			this.report.put("run", this.run);
			this.report.put("pid", ProcessHandle.current().pid());
			this.report.put("jvm", System.getProperty("java.vm.vendor", "") + " " + Runtime.version());
			this.report.put("applicationVersion", this.applicationVersion);
			this.report.put("initiatedAt", now.toString());
			Map<String, @Nullable Object> cause = new LinkedHashMap<>();
			cause.put("reason", trigger.reason().label());
			cause.put("component", trigger.component());
			cause.put("detail", trigger.detail());
			this.report.put("trigger", cause);
			this.report.put("state", IN_PROGRESS);
			this.report.put("lastStep", null);
			this.report.put("steps", this.steps);
			this.report.put("components", this.components);
			write();
			prune();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onStepCompleted(StepReport step) {
		this.lock.lock();
		try {
			if (this.file == null) {
				return;
			}
			Map<String, @Nullable Object> entry = new LinkedHashMap<>();
			entry.put("name", step.name());
			entry.put("startMs", step.start().toMillis());
			entry.put("durationMs", step.duration().toMillis());
			entry.put("result", step.result().label());
			this.steps.add(entry);
			this.report.put("lastStep", step.name());
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onComponentEnded(ComponentReport component) {
		this.lock.lock();
		try {
			if (this.file == null) {
				return;
			}
			long endMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.initiatedAt);
			if (this.components.size() < MAX_COMPONENTS) {
				this.components.add(component(component, Math.max(0, endMs - component.duration().toMillis())));
			}
			else {
				this.report.put("componentsTruncated", true);
			}
			if (TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.lastWrite) >= COMPONENT_WRITE_INTERVAL_MS) {
				write();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onShutdownCompleted(ShutdownReport report) {
		this.lock.lock();
		try {
			if (this.file == null) {
				return;
			}
			// The report has every component, including those that never ended; keep the start times seen.
			Map<String, Long> starts = new LinkedHashMap<>();
			for (Map<String, @Nullable Object> entry : this.components) {
				Object start = entry.get("stopStartMs");
				if (start instanceof Long value) {
					starts.put(String.valueOf(entry.get("name")), value);
				}
			}
			this.components.clear();
			for (ComponentReport component : report.components()) {
				if (this.components.size() >= MAX_COMPONENTS) {
					this.report.put("componentsTruncated", true);
					break;
				}
				this.components.add(component(component, starts.get(component.name())));
			}
			this.report.put("state", report.ceilingFired() ? CEILING : COMPLETED);
			this.report.put("exitCode", report.exitCode());
			this.report.put("clean", report.clean());
			this.report.put("elapsedMs", report.elapsed().toMillis());
			this.report.put("failedSteps", report.failedSteps());
			this.report.put("failedRequests", report.failedRequests());
			String diagnostics = report.diagnostics();
			this.report.put("diagnostics", (diagnostics.length() > MAX_DIAGNOSTICS_CHARS)
					? diagnostics.substring(0, MAX_DIAGNOSTICS_CHARS) + "\n[truncated]" : diagnostics);
			this.report.put("completedAt", Instant.now().toString());
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onForcedExit(int exitCode) {
		boolean locked;
		try {
			// A write under way finishes in milliseconds; a stuck one must not keep the process alive.
			locked = this.lock.tryLock(FORCED_WAIT_MS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			locked = false;
		}
		if (!locked) {
			logger.warn("Lifecycle: the shutdown report is busy; the forced exit is not recorded in it");
			return;
		}
		try {
			if (this.file == null || !IN_PROGRESS.equals(this.report.get("state"))) {
				return;
			}
			this.report.put("state", FORCED);
			this.report.put("exitCode", exitCode);
			this.report.put("clean", false);
			this.report.put("elapsedMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.initiatedAt));
			this.report.put("completedAt", Instant.now().toString());
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	private static Map<String, @Nullable Object> component(ComponentReport component, @Nullable Long stopStartMs) {
		Map<String, @Nullable Object> entry = new LinkedHashMap<>();
		entry.put("name", component.name());
		entry.put("tier", component.tier().name().toLowerCase(Locale.ROOT));
		entry.put("phase", component.phase());
		entry.put("outcome", (component.outcome() != null) ? component.outcome().label() : null);
		entry.put("stopStartMs", stopStartMs);
		entry.put("durationMs", component.duration().toMillis());
		if (!component.cut().isEmpty()) {
			entry.put("cut", component.cut());
		}
		return entry;
	}

	/**
	 * Replaces the report file atomically; a failure is logged once per write and never thrown.
	 * Only a report of this process's own replaces the file: a path found holding anything else is
	 * left as it is, and the report is not written.
	 */
	private void write() {
		Path target = this.file;
		if (target == null) {
			return;
		}
		this.lastWrite = System.nanoTime();
		Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
		try {
			Files.createDirectories(this.directory);
			if (!replaceable(temporary) || !replaceable(target)) {
				logger.error("Lifecycle: not writing the shutdown report {}: something that is not a shutdown report "
						+ "is in its place", target);
				return;
			}
			Files.writeString(temporary, Json.write(this.report), StandardCharsets.UTF_8);
			try {
				Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Lifecycle: could not write the shutdown report {}: {}", target, ex.toString());
		}
	}

	/** Nothing is there, or a report (whole or a temporary one a killed write left). */
	private static boolean replaceable(Path path) {
		if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
			return true;
		}
		return isReport(path);
	}

	/**
	 * Whether a file is a shutdown report, whole or cut short: a regular file (not a link) whose
	 * beginning is a report's.
	 */
	static boolean isReport(Path path) {
		if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		byte[] head = new byte[REPORT_HEAD.length()];
		try (InputStream in = Files.newInputStream(path, LinkOption.NOFOLLOW_LINKS)) {
			int read = in.readNBytes(head, 0, head.length);
			return REPORT_HEAD.equals(new String(head, 0, read, StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			return false;
		}
	}

	/** How every report begins, as {@link Json#write} lays it out. */
	private static final String REPORT_HEAD = "{\n  \"schema\": \"" + SCHEMA + "\"";

	/** Keeps the newest reports and removes temporary files a killed write left behind. */
	private void prune() {
		List<Path> reports = reports(this.directory, this.base);
		for (int i = 0; i < reports.size() - this.keep; i++) {
			delete(reports.get(i));
		}
		try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(this.directory,
				this.base + ".shutdown-*.json.tmp")) {
			for (Path leftover : leftovers) {
				delete(leftover);
			}
		}
		catch (IOException ex) {
			logger.debug("Lifecycle: could not list {}", this.directory, ex);
		}
	}

	/** Deletes a report; a file that is not one stays where it is. */
	private static void delete(Path path) {
		if (!isReport(path)) {
			logger.warn("Lifecycle: {} is named like a shutdown report but is not one; leaving it", path);
			return;
		}
		try {
			Files.deleteIfExists(path);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: could not delete {}: {}", path, ex.toString());
		}
	}

	static String name(String base, long sequence) {
		return base + ".shutdown-" + String.format(Locale.ROOT, "%0" + SEQUENCE_DIGITS + "d", sequence) + ".json";
	}

	/**
	 * The sequence number in a report's name; 0 for a name an earlier release gave by the time
	 * (ordered before every numbered one), -1 for a name that is not a report's at all.
	 */
	static long sequence(Path file, String base) {
		String name = file.getFileName().toString();
		String prefix = base + ".shutdown-";
		if (!name.startsWith(prefix) || !name.endsWith(".json")) {
			return -1;
		}
		String middle = name.substring(prefix.length(), name.length() - ".json".length());
		if (middle.length() == SEQUENCE_DIGITS && middle.chars().allMatch((c) -> c >= '0' && c <= '9')) {
			return Long.parseLong(middle);
		}
		return 0;
	}

	private static long nextSequence(Path directory, String base) {
		long highest = 0;
		for (Path report : reports(directory, base)) {
			highest = Math.max(highest, sequence(report, base));
		}
		return highest + 1;
	}

	/** This service's reports in the directory, oldest first: by sequence number, never by the clock. */
	static List<Path> reports(Path directory, String base) {
		List<Path> reports = new ArrayList<>();
		if (!Files.isDirectory(directory)) {
			return reports;
		}
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, base + ".shutdown-*.json")) {
			for (Path path : stream) {
				if (sequence(path, base) >= 0) {
					reports.add(path);
				}
			}
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: could not list shutdown reports in {}: {}", directory, ex.toString());
		}
		reports.sort(Comparator.comparingLong((Path path) -> sequence(path, base)).thenComparing(Path::toString));
		return reports;
	}

	// ---- reading at the next start -------------------------------------------------------------

	/**
	 * What is known of the previous process, or {@code null} when nothing is.
	 * @param marker the run marker's path
	 * @param markerContent what the previous process wrote into its marker if it was still there
	 */
	static @Nullable PreviousRun previous(Path marker, @Nullable String markerContent) {
		Path directory = (marker.toAbsolutePath().getParent() != null) ? marker.toAbsolutePath().getParent()
				: Path.of(".");
		List<Path> reports = reports(directory, base(marker));
		Path newest = reports.isEmpty() ? null : reports.get(reports.size() - 1);
		Map<String, @Nullable Object> report = (newest != null) ? read(newest) : Map.of();
		if (markerContent != null) {
			if (newest == null || !markerContent.equals(report.get("run"))) {
				return new PreviousRun(true, "previous run (" + markerContent + ") ended without a shutdown: "
						+ "SIGKILL, OOM kill or crash", null, Map.of());
			}
			return new PreviousRun(true, summary(report, "did not finish"), newest, report);
		}
		if (newest == null || report.isEmpty()) {
			return null;
		}
		return new PreviousRun(false, summary(report, "did not finish"), newest, report);
	}

	private static String summary(Map<String, @Nullable Object> report, String unfinished) {
		Object trigger = report.get("trigger");
		String reason = (trigger instanceof Map<?, ?> map) ? String.valueOf(map.get("reason")) : "unknown";
		if (trigger instanceof Map<?, ?> map && ShutdownReason.START_FAILED.label().equals(reason)) {
			// Which bean or component failed is the first thing to know about a failed start.
			reason += " of '" + map.get("component") + "'";
		}
		String at = String.valueOf(report.get("initiatedAt"));
		Object state = report.get("state");
		if (FORCED.equals(state)) {
			Object lastStep = report.get("lastStep");
			return "previous shutdown (" + at + ") forced by a second signal: " + reason + ", "
					+ ((lastStep != null) ? "last finished step '" + lastStep + "'" : "no step finished")
					+ ", exit " + report.get("exitCode");
		}
		if (IN_PROGRESS.equals(state)) {
			Object lastStep = report.get("lastStep");
			return "previous shutdown (" + at + ") " + unfinished + ": " + reason + ", "
					+ ((lastStep != null) ? "last finished step '" + lastStep + "'" : "no step finished")
					+ "; the process was killed during it (SIGKILL or OOM kill)";
		}
		String elapsed = (report.get("elapsedMs") instanceof Long ms)
				? String.format(Locale.ROOT, "%.1f s", ms / 1000.0) : "?";
		String outcome = CEILING.equals(state) ? "cut by the global ceiling"
				: (Boolean.TRUE.equals(report.get("clean")) ? "clean" : "not clean");
		String failed = (report.get("failedRequests") instanceof Long count && count > 0)
				? ", " + count + " request(s) failed after the trigger" : "";
		return "previous shutdown (" + at + "): " + reason + ", " + outcome + ", " + elapsed + ", exit "
				+ report.get("exitCode") + failed;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, @Nullable Object> read(Path file) {
		try {
			if (!isReport(file) || Files.size(file) > MAX_REPORT_BYTES) {
				logger.warn("Lifecycle: {} is not a shutdown report; ignoring it", file);
				return Map.of();
			}
			Object parsed = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
			if (parsed instanceof Map<?, ?> map && SCHEMA.equals(map.get("schema"))) {
				return (Map<String, @Nullable Object>) map;
			}
			logger.warn("Lifecycle: {} is not a shutdown report; ignoring it", file);
		}
		catch (IOException | IllegalArgumentException ex) {
			logger.warn("Lifecycle: could not read the shutdown report {}: {}", file, ex.toString());
		}
		return Map.of();
	}

}
