package dev.lifecycle.core;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;

import dev.lifecycle.core.component.Ticker;
import dev.lifecycle.core.record.RunMarker;
import dev.lifecycle.core.sequence.DrainWait;
import org.jspecify.annotations.Nullable;

/**
 * Everything a {@link LifecycleManager.Builder} was told, checked once and then fixed: a
 * settings record that exists is valid, so no part of the engine checks a setting again.
 *
 * @param serviceName the {@code service_name} label
 * @param globalShutdownTimeout the ceiling on the sequence
 * @param healthPollInterval how often the health monitor polls
 * @param drainDelay the longest drain delay
 * @param drainQuietPeriod ends the drain delay early once traffic is quiet this long;
 * {@code null} for a fixed delay
 * @param drainMinimum the shortest adaptive drain
 * @param preStopFile the file whose appearance triggers a shutdown, or {@code null}
 * @param runMarker the run marker, or {@code null}
 * @param runMarkerAtStart whether the records open at start rather than at build
 * @param shutdownReports how many shutdown reports to keep
 * @param applicationVersion recorded in the reports, or {@code null}
 * @param incompleteExitCode the exit code of a shutdown that left work for a later run
 * @param automaticHealthPolling whether the engine polls health itself
 * @param threadFactory where every engine thread comes from
 * @param ticker the health monitor's clock
 * @param optionsResolver resolves each component's effective options at registration
 * @param listeners the listeners known at build
 */
record EngineSettings(String serviceName, Duration globalShutdownTimeout, Duration healthPollInterval,
		Duration drainDelay, @Nullable Duration drainQuietPeriod, Duration drainMinimum, @Nullable Path preStopFile,
		@Nullable Path runMarker, boolean runMarkerAtStart, int shutdownReports, @Nullable String applicationVersion,
		int incompleteExitCode, boolean automaticHealthPolling, ThreadFactory threadFactory, Ticker ticker,
		BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver, List<LifecycleListener> listeners) {

	/**
	 * Checks every setting.
	 * @throws InvalidOptionException naming the first invalid setting
	 */
	EngineSettings {
		if (serviceName == null || serviceName.isBlank()) {
			throw new IllegalArgumentException("serviceName must not be blank");
		}
		OptionRules.positive(null, "globalShutdownTimeout", globalShutdownTimeout);
		OptionRules.period(null, "healthPollInterval", healthPollInterval);
		OptionRules.notNegative(null, "drainDelay", drainDelay);
		if (drainDelay.compareTo(globalShutdownTimeout) >= 0) {
			throw new InvalidOptionException(null, "drainDelay", InvalidOptionException.Kind.CONFLICT, null,
					"(" + drainDelay + ") must be shorter than globalShutdownTimeout (" + globalShutdownTimeout
							+ "), which bounds it");
		}
		if (drainQuietPeriod != null && !drainDelay.isZero()) {
			OptionRules.positive(null, "drainQuietPeriod", drainQuietPeriod);
			if (drainMinimum.isNegative() || drainMinimum.compareTo(drainDelay) > 0) {
				throw new InvalidOptionException(null, "drainMinimum", InvalidOptionException.Kind.CONFLICT, null,
						"(" + drainMinimum + ") must be between 0 and drainDelay (" + drainDelay + ")");
			}
		}
		OptionRules.count(null, "shutdownReports", shutdownReports, 0);
		OptionRules.incompleteExitCode("incompleteExitCode", incompleteExitCode);
		if (preStopFile != null && !preStopFile.isAbsolute()) {
			throw new InvalidOptionException(null, "preStopFile", InvalidOptionException.Kind.NOT_ABSOLUTE, null,
					"must be an absolute path but was '" + preStopFile + "'");
		}
		if (preStopFile != null) {
			PreStopWatcher.check(preStopFile);
		}
		if (runMarker != null) {
			RunMarker.check(runMarker);
		}
		listeners = List.copyOf(listeners);
	}

	/** The drain delay and what ends it early, counting the given activity. */
	DrainWait drain(LongSupplier activity) {
		return new DrainWait(this.drainDelay, this.drainQuietPeriod, this.drainMinimum, activity);
	}

}
