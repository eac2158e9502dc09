package dev.lifecycle.core.record;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.UnfinishedWork;
import org.jspecify.annotations.Nullable;

/**
 * Reads, at a start, what the previous process left: its run marker if it was still
 * there, and the newest shutdown report that can be read. A report that cannot be read
 * (cut short, damaged, foreign) is skipped with one WARN naming it, and the next older
 * one is read instead; nothing here ever stops a start.
 */
@Internal
public final class PreviousRuns {

	private PreviousRuns() {
	}

	/**
	 * What is known of the previous process, or {@code null} when nothing is.
	 * @param marker the run marker's path
	 * @param markerContent what the previous process wrote into its marker if it was
	 * still there
	 */
	public static @Nullable PreviousRun read(Path marker, @Nullable String markerContent) {
		ReportFiles files = new ReportFiles(marker);
		List<Path> reports = files.list();
		Path newest = null;
		ShutdownRecord record = null;
		for (int i = reports.size() - 1; i >= 0 && record == null; i--) {
			Optional<ShutdownRecord> read = files.read(reports.get(i));
			if (read.isPresent()) {
				newest = reports.get(i);
				record = read.get();
			}
		}
		if (markerContent != null) {
			if (record == null || !markerContent.equals(record.run())) {
				return new PreviousRun(true, "previous run (" + markerContent + ") ended without a shutdown: "
						+ "SIGKILL, OOM kill or crash", null, null, RunMarker.instanceOf(markerContent));
			}
			return new PreviousRun(true, summary(record), newest, record, RunMarker.instanceOf(markerContent));
		}
		if (record == null) {
			return null;
		}
		return new PreviousRun(false, summary(record), newest, record, RunMarker.instanceOf(record.run()));
	}

	/** The one line a start logs about the previous shutdown. */
	static String summary(ShutdownRecord report) {
		String reason = report.trigger().reason().label();
		if (report.trigger().reason() == ShutdownReason.START_FAILED) {
			// Which bean or component failed is the first thing to know about a failed
			// start.
			reason += " of '" + report.trigger().component() + "'";
		}
		String at = String.valueOf(report.initiatedAt());
		String lastStep = (report.lastStep() != null) ? "last finished step '" + report.lastStep() + "'"
				: "no step finished";
		ShutdownRecord.State state = report.state();
		if (state == ShutdownRecord.State.FORCED) {
			return "previous shutdown (" + at + ") forced by a second signal: " + reason + ", " + lastStep + ", exit "
					+ report.exitCode();
		}
		if (state == ShutdownRecord.State.IN_PROGRESS || state == ShutdownRecord.State.UNKNOWN) {
			return "previous shutdown (" + at + ") did not finish: " + reason + ", " + lastStep
					+ "; the process was killed during it (SIGKILL or OOM kill)";
		}
		String elapsed = (report.elapsed() != null)
				? String.format(Locale.ROOT, "%.1f s", report.elapsed().toMillis() / 1000.0) : "?";
		String outcome = (state == ShutdownRecord.State.CEILING) ? "cut by the global ceiling"
				: (Boolean.TRUE.equals(report.clean()) ? "clean" : "not clean");
		String failed = (report.failedRequests() != null && report.failedRequests() > 0)
				? ", " + report.failedRequests() + " request(s) failed after the trigger" : "";
		return "previous shutdown (" + at + "): " + reason + ", " + outcome + ", " + elapsed + ", exit "
				+ report.exitCode() + failed + cutAndUnfinished(report);
	}

	/**
	 * The components whose stop cut work, and how much work was left for this run and
	 * which; empty if neither.
	 */
	private static String cutAndUnfinished(ShutdownRecord report) {
		StringBuilder text = new StringBuilder();
		List<String> cut = report.components()
			.stream()
			.filter((component) -> !component.cut().isEmpty())
			.map((component) -> "'" + component.name() + "'")
			.toList();
		if (!cut.isEmpty()) {
			text.append(", work cut in ").append(String.join(", ", cut));
		}
		if (!report.unfinishedWork().isEmpty()) {
			// Named, so that the start that retries it says which work it takes up.
			text.append(", ")
				.append(report.unfinishedWork().size())
				.append(" unfinished for a later run (")
				.append(report.unfinishedWork()
					.stream()
					.map(UnfinishedWork::toString)
					.collect(Collectors.joining("; ")))
				.append(")");
		}
		return text.toString();
	}

}
