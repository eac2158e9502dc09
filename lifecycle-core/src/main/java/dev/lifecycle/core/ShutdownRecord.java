package dev.lifecycle.core;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * One shutdown report, as the engine writes it next to its run marker and as the next
 * start reads it back: the same fields, under the same names, in the file, in
 * {@link PreviousRun#report()} and in the {@code lifecycle} endpoint. A field the file
 * did not have (an older release's report, or a report of a process that was killed
 * before the field was known) is {@code null}.
 *
 * @param sequence the report's number among this service's reports, higher is newer; 0
 * when unknown
 * @param service the service name
 * @param run the run marker content of the process that wrote it, which ties the report
 * to a marker
 * @param pid the process id of the process that wrote it, 0 when unknown
 * @param jvm the JVM's vendor and version
 * @param applicationVersion the application's version, when it was known
 * @param initiatedAt when the shutdown began (ISO-8601, the wall clock of that process)
 * @param trigger what began the shutdown
 * @param state how far the shutdown got; {@code null} for a state this release does not
 * know
 * @param lastStep the last step that finished, if any
 * @param steps each step that finished, in order
 * @param components each component that ended (every component once the sequence
 * finished)
 * @param componentsTruncated whether components were left out to bound the file's size
 * @param exitCode the exit code, once decided
 * @param clean {@link ShutdownReport#clean()}, once decided; {@code false} once a second
 * signal forced the exit or the process was halted past the ceiling
 * @param elapsedMs from initiation to the end, once ended
 * @param failedSteps {@link ShutdownReport#failedSteps()}
 * @param unfinishedWork work left for a later run, each as {@code "component: work"}
 * @param failedRequests requests that failed after the trigger, once the sequence
 * finished
 * @param diagnostics stacks of what overran its budget or the ceiling, once the sequence
 * finished
 * @param completedAt when the sequence ended or the exit was forced
 */
public record ShutdownRecord(long sequence, @Nullable String service, @Nullable String run, long pid,
		@Nullable String jvm, @Nullable String applicationVersion, @Nullable String initiatedAt, Trigger trigger,
		@Nullable State state, @Nullable String lastStep, List<Step> steps, List<ComponentEntry> components,
		boolean componentsTruncated, @Nullable Integer exitCode, @Nullable Boolean clean, @Nullable Long elapsedMs,
		List<String> failedSteps, List<String> unfinishedWork, @Nullable Long failedRequests,
		@Nullable String diagnostics, @Nullable String completedAt) {

	/** The value of the {@code schema} field that makes a JSON file a shutdown report. */
	public static final String SCHEMA = "dev.lifecycle/shutdown-report";

	/** The schema version this release writes. */
	public static final int VERSION = 1;

	/** Copies the lists so a record cannot change after it is made. */
	public ShutdownRecord {
		steps = List.copyOf(steps);
		components = List.copyOf(components);
		failedSteps = List.copyOf(failedSteps);
		unfinishedWork = List.copyOf(unfinishedWork);
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
		ReportCodec.Result result = ReportCodec.read(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
		if (result instanceof ReportCodec.Read read) {
			return read.record();
		}
		throw new IllegalArgumentException(file + ": " + ((ReportCodec.Rejected) result).reason());
	}

	/** The entry of one component, if the report has one. */
	public Optional<ComponentEntry> component(String name) {
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
		FORCED("forced");

		private final String label;

		State(String label) {
			this.label = label;
		}

		/** The value in the report file. */
		public String label() {
			return this.label;
		}

		/**
		 * The state of this label, or {@code null} for one this release does not know.
		 */
		public static @Nullable State of(@Nullable String label) {
			for (State state : values()) {
				if (state.label.equals(label)) {
					return state;
				}
			}
			return null;
		}

	}

	/**
	 * What began the shutdown.
	 *
	 * @param reason the {@link ShutdownReason}'s label, e.g. {@code signal} or
	 * {@code start-failed}
	 * @param component who or what triggered it, e.g. {@code signal} or the failed bean's
	 * name
	 * @param detail more about it, possibly empty
	 */
	public record Trigger(String reason, @Nullable String component, @Nullable String detail) {

		static Trigger of(ShutdownTrigger trigger) {
			return new Trigger(trigger.reason().label(), trigger.component(), trigger.detail());
		}

	}

	/**
	 * One step of the sequence that finished.
	 *
	 * @param name the step's name, e.g. {@code standard drain, phase 10}
	 * @param startMs when it began, from initiation
	 * @param durationMs how long it took
	 * @param result its {@link StepResult}'s label
	 */
	public record Step(String name, long startMs, long durationMs, @Nullable String result) {

		static Step of(StepReport step) {
			return new Step(step.name(), step.start().toMillis(), step.duration().toMillis(), step.result().label());
		}

	}

	/**
	 * One component's end.
	 *
	 * @param name the component's name
	 * @param tier its {@link Tier}, lower case
	 * @param phase its phase
	 * @param outcome its {@link Outcome}'s label, {@code null} while it had not ended
	 * @param stopStartMs when it was told to stop, from initiation, if that was seen
	 * @param durationMs how long it took to end
	 * @param cut the work its stop cut short (calls or requests a grace period, a budget
	 * or the ceiling cancelled), each named; empty when it cut nothing
	 */
	public record ComponentEntry(String name, @Nullable String tier, long phase, @Nullable String outcome,
			@Nullable Long stopStartMs, long durationMs, List<String> cut) {

		/** Copies the list so an entry cannot change after it is made. */
		public ComponentEntry {
			cut = List.copyOf(cut);
		}

		static ComponentEntry of(ComponentReport component, @Nullable Long stopStartMs) {
			return new ComponentEntry(component.name(), component.tier().name().toLowerCase(Locale.ROOT),
					component.phase(), (component.outcome() != null) ? component.outcome().label() : null, stopStartMs,
					component.duration().toMillis(), component.cut());
		}

	}

}
