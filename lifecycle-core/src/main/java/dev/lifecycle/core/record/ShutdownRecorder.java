package dev.lifecycle.core.record;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ReportCodec;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.StepReport;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the shutdown report next to the run marker as the sequence goes (at initiation,
 * after every step, as components end and at the end), each write replacing the file
 * atomically: a SIGKILL at any moment leaves a whole report of the timeline up to that
 * point, because after one nothing else would. What the file holds is a
 * {@link ShutdownRecord}, laid out by the {@link ReportCodec}; where it goes is the
 * {@link ReportFiles}' job.
 */
@Internal
public final class ShutdownRecorder implements LifecycleListener {

	static final long COMPONENT_WRITE_INTERVAL_MS = 200;

	static final int MAX_COMPONENTS = 2000;

	static final int MAX_DIAGNOSTICS_CHARS = 64 * 1024;

	/**
	 * How long a forced exit waits for a write under way before it records itself anyway.
	 */
	private static final long FORCED_WAIT_MS = 50;

	private static final Logger logger = LoggerFactory.getLogger(ShutdownRecorder.class);

	private final ReportFiles files;

	private final String serviceName;

	private final String run;

	private final int keep;

	private final @Nullable String applicationVersion;

	private final ReentrantLock lock = new ReentrantLock();

	private final List<StepReport> steps = new ArrayList<>();

	private final List<ComponentReport> components = new ArrayList<>();

	private @Nullable ShutdownRecord record;

	private long initiatedAt;

	private long lastWrite;

	private @Nullable Path file;

	public ShutdownRecorder(Path marker, String serviceName, String run, int keep,
			@Nullable String applicationVersion) {
		this.files = new ReportFiles(marker);
		this.serviceName = serviceName;
		this.run = run;
		this.keep = keep;
		this.applicationVersion = applicationVersion;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.lock.lock();
		try {
			this.initiatedAt = System.nanoTime();
			Path target = this.files.next();
			this.file = target;
			this.record = ShutdownRecord.builder(trigger)
				.process(this.files.sequence(target), this.serviceName, this.run, ProcessHandle.current().pid(),
						System.getProperty("java.vm.vendor", "") + " " + Runtime.version(), this.applicationVersion)
				.initiatedAt(Instant.now())
				.build();
			write();
			this.files.prune(this.keep);
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onStepCompleted(StepReport step) {
		this.lock.lock();
		try {
			ShutdownRecord current = this.record;
			if (current == null) {
				return;
			}
			this.steps.add(step);
			this.record = current.toBuilder().lastStep(step.name()).steps(this.steps).build();
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
			ShutdownRecord current = this.record;
			if (current == null) {
				return;
			}
			boolean truncated = current.componentsTruncated();
			if (this.components.size() < MAX_COMPONENTS) {
				this.components.add(component);
			}
			else {
				truncated = true;
			}
			this.record = current.toBuilder().components(this.components, truncated).build();
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
			ShutdownRecord current = this.record;
			if (current == null) {
				return;
			}
			// The report has every component, including those that never ended.
			this.components.clear();
			boolean truncated = current.componentsTruncated();
			for (ComponentReport component : report.components()) {
				if (this.components.size() >= MAX_COMPONENTS) {
					truncated = true;
					break;
				}
				this.components.add(component);
			}
			// The steps as this recorder heard them: the report's own are the same.
			this.record = current.toBuilder()
				.report(report)
				.steps(this.steps)
				.components(this.components, truncated)
				.diagnostics(bounded(report.diagnostics()))
				.completedAt(Instant.now())
				.build();
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public void onForcedExit(int exitCode) {
		if (!lockQuickly("forced exit")) {
			return;
		}
		try {
			ShutdownRecord current = this.record;
			if (current == null || current.state() != ShutdownRecord.State.IN_PROGRESS) {
				return;
			}
			this.record = current.toBuilder()
				.ended(ShutdownRecord.State.FORCED, exitCode, false, elapsed())
				.completedAt(Instant.now())
				.build();
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The process is halted past the ceiling: whatever the report said, it now says so,
	 * with what held the process after the diagnostics it had.
	 */
	@Override
	public void onHalted(int exitCode, String heldBy) {
		if (!lockQuickly("halt")) {
			return;
		}
		try {
			ShutdownRecord current = this.record;
			if (current == null || current.state() == ShutdownRecord.State.FORCED) {
				return;
			}
			String diagnostics = (current.diagnostics() == null || current.diagnostics().isEmpty()) ? heldBy
					: current.diagnostics() + "\n" + heldBy;
			this.record = current.toBuilder()
				.ended(ShutdownRecord.State.CEILING, exitCode, false, elapsed())
				.diagnostics(bounded(diagnostics))
				.completedAt(Instant.now())
				.build();
			write();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * A write under way finishes in milliseconds; a stuck one must not keep a halting
	 * process alive.
	 */
	private boolean lockQuickly(String what) {
		boolean locked;
		try {
			locked = this.lock.tryLock(FORCED_WAIT_MS, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			locked = false;
		}
		if (!locked) {
			logger.warn("Lifecycle: the shutdown report is busy; the {} is not recorded in it", what);
		}
		return locked;
	}

	private Duration elapsed() {
		return Duration.ofNanos(System.nanoTime() - this.initiatedAt);
	}

	private static String bounded(String diagnostics) {
		return (diagnostics.length() > MAX_DIAGNOSTICS_CHARS)
				? diagnostics.substring(0, MAX_DIAGNOSTICS_CHARS) + "\n[truncated]" : diagnostics;
	}

	private void write() {
		Path target = this.file;
		ShutdownRecord current = this.record;
		if (target == null || current == null) {
			return;
		}
		this.lastWrite = System.nanoTime();
		this.files.write(target, ReportCodec.write(current));
	}

}
