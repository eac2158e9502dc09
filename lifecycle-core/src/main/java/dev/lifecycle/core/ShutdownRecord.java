package dev.lifecycle.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.lifecycle.core.record.ReportFiles;
import org.jspecify.annotations.Nullable;

/**
 * One shutdown report, as the engine writes it next to its run marker and as the next
 * start reads it back: the same fields, under the same names, in the file, in
 * {@link PreviousRun#report()} and in the {@code lifecycle} endpoint, all laid out and
 * read by the one {@link ReportCodec}. Its parts are the engine's own: the
 * {@link ShutdownTrigger}, each step's {@link StepReport}, each component's
 * {@link ComponentReport} and the {@link UnfinishedWork}, under the names
 * {@link ShutdownReport} gives them; what the file adds is which process wrote it and how
 * far it got ({@link #state()}). A field the file did not have (an older release's
 * report, or a report of a process that was killed before the field was known) is
 * {@code null}, an empty list or 0; a label the file has that this release does not know
 * (a newer release wrote it) is read as the enum's {@code UNKNOWN}. Made by its
 * {@link RecordBuilder}.
 *
 * @param sequence the report's number among this service's reports, higher is newer; 0
 * when unknown
 * @param service the service name
 * @param run the run marker content of the process that wrote it, which ties the report
 * to a marker
 * @param pid the process id of the process that wrote it, 0 when unknown
 * @param jvm the JVM's vendor and version
 * @param applicationVersion the application's version, when it was known
 * @param initiatedAt when the shutdown began, by the wall clock of that process
 * @param trigger what began the shutdown
 * @param state how far the shutdown got
 * @param lastStep the last step that finished, if any
 * @param steps each step that finished, in order
 * @param components each component that ended (every component once the sequence
 * finished)
 * @param componentsTruncated whether components were left out to bound the file's size
 * @param exitCode the exit code, once decided
 * @param clean {@link ShutdownReport#clean()}, once decided; {@code false} once a second
 * signal forced the exit or the process was halted past the ceiling
 * @param elapsed from initiation to the end, once ended
 * @param failedSteps {@link ShutdownReport#failedSteps()}
 * @param unfinishedWork {@link ShutdownReport#unfinishedWork()}
 * @param failedRequests requests that failed after the trigger, once the sequence
 * finished
 * @param diagnostics stacks of what overran its budget or the ceiling, once the sequence
 * finished
 * @param completedAt when the sequence ended or the exit was forced
 */
public record ShutdownRecord(long sequence, @Nullable String service, @Nullable String run, long pid,
		@Nullable String jvm, @Nullable String applicationVersion, @Nullable Instant initiatedAt,
		ShutdownTrigger trigger, State state, @Nullable String lastStep, List<StepReport> steps,
		List<ComponentReport> components, boolean componentsTruncated, @Nullable Integer exitCode,
		@Nullable Boolean clean, @Nullable Duration elapsed, List<String> failedSteps,
		List<UnfinishedWork> unfinishedWork, @Nullable Long failedRequests, @Nullable String diagnostics,
		@Nullable Instant completedAt) {

	/** The value of the {@code schema} field that makes a JSON file a shutdown report. */
	public static final String SCHEMA = "dev.lifecycle/shutdown-report";

	/**
	 * The schema version this release writes. Version 2 writes unfinished work and cuts
	 * as objects (version 1 wrote them as strings, which the codec still reads) and each
	 * step's kind.
	 */
	public static final int VERSION = 2;

	/** Copies the lists so a record cannot change after it is made. */
	public ShutdownRecord {
		steps = List.copyOf(steps);
		components = List.copyOf(components);
		failedSteps = List.copyOf(failedSteps);
		unfinishedWork = List.copyOf(unfinishedWork);
		Objects.requireNonNull(trigger, "trigger");
		Objects.requireNonNull(state, "state");
	}

	/**
	 * A record of a shutdown begun by this trigger, under way until told otherwise.
	 * @param trigger what began it
	 * @return a builder of the record
	 */
	public static RecordBuilder builder(ShutdownTrigger trigger) {
		return new RecordBuilder(trigger);
	}

	/**
	 * A builder that starts from this record's fields.
	 * @return the builder
	 */
	public RecordBuilder toBuilder() {
		return new RecordBuilder(this);
	}

	/** Whether the global ceiling cut the shutdown short, or halted the process. */
	public boolean ceilingFired() {
		return this.state == State.CEILING;
	}

	/**
	 * The report files kept next to a run marker, oldest first: ordered by their sequence
	 * number, never by the clock (the file names are described in the manual,
	 * docs/observability.md, "Lifecycle's files"). Each is read by {@link #read(Path)}.
	 * @param runMarker the run marker's path ({@code lifecycle.run-marker.path}); it need
	 * not exist
	 * @return the files, empty when there are none
	 */
	public static List<Path> files(Path runMarker) {
		return new ReportFiles(runMarker).list();
	}

	/**
	 * Reads a report file through the codec that wrote it, as the next start does.
	 * @param file a report file, e.g. one of {@link #files(Path)}
	 * @return the report
	 * @throws IOException if the file cannot be read
	 * @throws IllegalArgumentException if it does not hold a shutdown report; the message
	 * says why, never what the file holds
	 */
	public static ShutdownRecord read(Path file) throws IOException {
		ReportCodec.Result result = ReportCodec.read(Files.readString(file, StandardCharsets.UTF_8));
		if (result instanceof ReportCodec.Read read) {
			return read.record();
		}
		throw new IllegalArgumentException(file + ": " + ((ReportCodec.Rejected) result).reason());
	}

	/** The entry of one component, if the report has one. */
	public Optional<ComponentReport> component(String name) {
		return this.components.stream().filter((entry) -> name.equals(entry.name())).findFirst();
	}

	/**
	 * How far a shutdown got when its report was last written.
	 */
	public enum State {

		/** Under way: the process was killed during it if this is the last word. */
		IN_PROGRESS("in-progress"),

		/** The sequence ran to its end. */
		COMPLETED("completed"),

		/** The global ceiling cut the sequence short. */
		CEILING("ceiling"),

		/** A second signal forced the exit before the sequence finished. */
		FORCED("forced"),

		/** A state a newer release wrote, or none at all. */
		UNKNOWN("unknown");

		private final String label;

		State(String label) {
			this.label = label;
		}

		/** The value in the report file. */
		public String label() {
			return this.label;
		}

	}

	/**
	 * Builds a {@link ShutdownRecord}, the one place one is made: from a trigger, from
	 * another record ({@link #toBuilder()}), or from the engine's {@link ShutdownReport}
	 * ({@link #report(ShutdownReport)}). Not thread-safe; a record it built never
	 * changes.
	 */
	public static final class RecordBuilder {

		private long sequence;

		private @Nullable String service;

		private @Nullable String run;

		private long pid;

		private @Nullable String jvm;

		private @Nullable String applicationVersion;

		private @Nullable Instant initiatedAt;

		private ShutdownTrigger trigger;

		private State state = State.IN_PROGRESS;

		private @Nullable String lastStep;

		private List<StepReport> steps = List.of();

		private List<ComponentReport> components = List.of();

		private boolean componentsTruncated;

		private @Nullable Integer exitCode;

		private @Nullable Boolean clean;

		private @Nullable Duration elapsed;

		private List<String> failedSteps = List.of();

		private List<UnfinishedWork> unfinishedWork = List.of();

		private @Nullable Long failedRequests;

		private @Nullable String diagnostics;

		private @Nullable Instant completedAt;

		private RecordBuilder(ShutdownTrigger trigger) {
			this.trigger = Objects.requireNonNull(trigger, "trigger");
		}

		private RecordBuilder(ShutdownRecord record) {
			this.sequence = record.sequence;
			this.service = record.service;
			this.run = record.run;
			this.pid = record.pid;
			this.jvm = record.jvm;
			this.applicationVersion = record.applicationVersion;
			this.initiatedAt = record.initiatedAt;
			this.trigger = record.trigger;
			this.state = record.state;
			this.lastStep = record.lastStep;
			this.steps = record.steps;
			this.components = record.components;
			this.componentsTruncated = record.componentsTruncated;
			this.exitCode = record.exitCode;
			this.clean = record.clean;
			this.elapsed = record.elapsed;
			this.failedSteps = record.failedSteps;
			this.unfinishedWork = record.unfinishedWork;
			this.failedRequests = record.failedRequests;
			this.diagnostics = record.diagnostics;
			this.completedAt = record.completedAt;
		}

		/**
		 * Which process wrote the record.
		 * @param sequence the report's number among the service's reports
		 * @param service the service name
		 * @param run the run marker's content
		 * @param pid the process id
		 * @param jvm the JVM's vendor and version
		 * @param applicationVersion the application's version, if known
		 * @return this builder
		 */
		public RecordBuilder process(long sequence, @Nullable String service, @Nullable String run, long pid,
				@Nullable String jvm, @Nullable String applicationVersion) {
			this.sequence = sequence;
			this.service = service;
			this.run = run;
			this.pid = pid;
			this.jvm = jvm;
			this.applicationVersion = applicationVersion;
			return this;
		}

		/**
		 * Everything the engine's report says: its state (completed, or cut by the
		 * ceiling), steps, components, verdict and diagnostics.
		 * @param report the report of the sequence that ended
		 * @return this builder
		 */
		public RecordBuilder report(ShutdownReport report) {
			this.state = report.ceilingFired() ? State.CEILING : State.COMPLETED;
			this.steps = report.steps();
			this.components = report.components();
			this.exitCode = report.exitCode();
			this.clean = report.clean();
			this.elapsed = report.elapsed();
			this.failedSteps = report.failedSteps();
			this.unfinishedWork = report.unfinishedWork();
			this.failedRequests = report.failedRequests();
			this.diagnostics = report.diagnostics();
			return this;
		}

		/**
		 * How the shutdown ended, for an end the engine's report does not describe (a
		 * forced exit, a halt).
		 * @param state how far it got
		 * @param exitCode the exit code
		 * @param clean whether it was clean
		 * @param elapsed from initiation to the end
		 * @return this builder
		 */
		public RecordBuilder ended(State state, int exitCode, boolean clean, Duration elapsed) {
			this.state = state;
			this.exitCode = exitCode;
			this.clean = clean;
			this.elapsed = elapsed;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#initiatedAt()}.
		 * @param initiatedAt when the shutdown began
		 * @return this builder
		 */
		public RecordBuilder initiatedAt(@Nullable Instant initiatedAt) {
			this.initiatedAt = initiatedAt;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#state()}.
		 * @param state how far the shutdown got
		 * @return this builder
		 */
		public RecordBuilder state(State state) {
			this.state = Objects.requireNonNull(state, "state");
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#lastStep()}.
		 * @param lastStep the last step that finished
		 * @return this builder
		 */
		public RecordBuilder lastStep(@Nullable String lastStep) {
			this.lastStep = lastStep;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#steps()}.
		 * @param steps each step that finished, in order
		 * @return this builder
		 */
		public RecordBuilder steps(List<StepReport> steps) {
			this.steps = List.copyOf(steps);
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#components()}.
		 * @param components the components' reports
		 * @param truncated whether some were left out to bound the file's size
		 * @return this builder
		 */
		public RecordBuilder components(List<ComponentReport> components, boolean truncated) {
			this.components = List.copyOf(components);
			this.componentsTruncated = truncated;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#exitCode()}.
		 * @param exitCode the exit code, once decided
		 * @return this builder
		 */
		public RecordBuilder exitCode(@Nullable Integer exitCode) {
			this.exitCode = exitCode;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#clean()}.
		 * @param clean whether it was clean, once decided
		 * @return this builder
		 */
		public RecordBuilder clean(@Nullable Boolean clean) {
			this.clean = clean;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#elapsed()}.
		 * @param elapsed from initiation to the end, once ended
		 * @return this builder
		 */
		public RecordBuilder elapsed(@Nullable Duration elapsed) {
			this.elapsed = elapsed;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#failedSteps()}.
		 * @param failedSteps the steps that failed
		 * @return this builder
		 */
		public RecordBuilder failedSteps(List<String> failedSteps) {
			this.failedSteps = List.copyOf(failedSteps);
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#unfinishedWork()}.
		 * @param unfinishedWork the work left for a later run
		 * @return this builder
		 */
		public RecordBuilder unfinishedWork(List<UnfinishedWork> unfinishedWork) {
			this.unfinishedWork = List.copyOf(unfinishedWork);
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#failedRequests()}.
		 * @param failedRequests the requests that failed after the trigger
		 * @return this builder
		 */
		public RecordBuilder failedRequests(@Nullable Long failedRequests) {
			this.failedRequests = failedRequests;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#diagnostics()}.
		 * @param diagnostics the stacks of what overran
		 * @return this builder
		 */
		public RecordBuilder diagnostics(@Nullable String diagnostics) {
			this.diagnostics = diagnostics;
			return this;
		}

		/**
		 * Sets {@link ShutdownRecord#completedAt()}.
		 * @param completedAt when the sequence ended or the exit was forced
		 * @return this builder
		 */
		public RecordBuilder completedAt(@Nullable Instant completedAt) {
			this.completedAt = completedAt;
			return this;
		}

		/**
		 * The record.
		 * @return the record, which never changes
		 */
		public ShutdownRecord build() {
			return new ShutdownRecord(this.sequence, this.service, this.run, this.pid, this.jvm,
					this.applicationVersion, this.initiatedAt, this.trigger, this.state, this.lastStep, this.steps,
					this.components, this.componentsTruncated, this.exitCode, this.clean, this.elapsed,
					this.failedSteps, this.unfinishedWork, this.failedRequests, this.diagnostics, this.completedAt);
		}

	}
}
