package dev.lifecycle.core;

import java.nio.file.Path;
import java.util.Optional;

import dev.lifecycle.core.record.PreviousRuns;
import dev.lifecycle.core.record.RunMarker;
import dev.lifecycle.core.record.ShutdownRecorder;
import dev.lifecycle.core.sequence.Listeners;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run marker and the shutdown reports next to it: opened once, when the manager is
 * built or at its start, and the marker released only by a sequence that finished. A
 * ceiling exit leaves it, so the next start still sees an unclean end, because this
 * process's counters die with it.
 */
final class RunRecords {

	/** The manager's lines keep its logger name, which users filter and configure. */
	private static final Logger logger = LoggerFactory.getLogger(LifecycleManager.class);

	private final EngineSettings settings;

	private final Listeners listeners;

	private volatile @Nullable RunMarker marker;

	/** What is known of the previous process, read when the run marker was written. */
	private volatile @Nullable PreviousRun previousRun;

	RunRecords(EngineSettings settings, Listeners listeners) {
		this.settings = settings;
		this.listeners = listeners;
	}

	/**
	 * Opens the records when the manager is built, unless they open at its start: written
	 * as early as the manager exists, so a crash during the rest of the start-up is seen
	 * as an unclean end too.
	 */
	void openAtBuild() {
		if (!this.settings.runMarkerAtStart()) {
			open();
		}
	}

	/**
	 * Opens the records at the start when they open there, unless a shutdown has already
	 * begun.
	 */
	void openAtStart(boolean shutdownInitiated) {
		if (this.settings.runMarkerAtStart() && !shutdownInitiated) {
			open();
		}
	}

	/**
	 * Writes the run marker, reads what the previous process left and starts recording
	 * reports.
	 */
	private void open() {
		Path file = this.settings.runMarker();
		if (file == null) {
			return;
		}
		RunMarker opened = new RunMarker(file);
		RunMarker.Acquired acquired = opened.acquire();
		if (!acquired.owned()) {
			// Another live process's records: neither its previous run nor its files are
			// this one's.
			return;
		}
		this.previousRun = PreviousRuns.read(opened.file(), acquired.previous());
		if (this.settings.shutdownReports() > 0) {
			this.listeners.add(new ShutdownRecorder(opened.file(), this.settings.serviceName(), opened.content(),
					this.settings.shutdownReports(), this.settings.applicationVersion()));
		}
		this.marker = opened;
	}

	/** Logs what is known of the previous process and tells the listeners. */
	void announcePreviousRun() {
		PreviousRun previous = this.previousRun;
		if (previous == null) {
			return;
		}
		if (previous.unclean()) {
			logger.warn("Lifecycle: {}", previous.summary());
		}
		else {
			logger.info("Lifecycle: {}", previous.summary());
		}
		this.listeners.previousRun(previous);
	}

	/** This process's identity, while it holds its run marker. */
	Optional<String> instance() {
		RunMarker opened = this.marker;
		return (opened != null) ? Optional.of(opened.instance()) : Optional.empty();
	}

	Optional<PreviousRun> previousRun() {
		return Optional.ofNullable(this.previousRun);
	}

	/** Removes the marker, unless the ceiling cut the sequence. */
	void close(ShutdownReport report) {
		RunMarker opened = this.marker;
		if (!report.ceilingFired() && opened != null) {
			opened.release();
		}
	}

}
