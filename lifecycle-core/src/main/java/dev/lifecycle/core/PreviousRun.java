package dev.lifecycle.core;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * What the engine found at start about the process that ran before it, from the run
 * marker and the shutdown reports kept next to it.
 *
 * @param unclean whether the previous process left its run marker behind: it did not
 * finish a shutdown (SIGKILL, OOM kill, a crash, a forced exit or the global ceiling)
 * @param summary one line for the log, e.g.
 * {@code "previous shutdown: signal, clean, 6.2 s, exit 0"} or
 * {@code "previous run ended without a shutdown: SIGKILL, OOM kill or crash"}
 * @param reportFile the report of the previous process's shutdown, if one was written and
 * could be read
 * @param report that report, or {@code null} without one
 * @param instance the identity the previous process wrote into its run marker (its host's
 * name and a random part), or {@code null} when its marker had none; what it owned is
 * known by it, and that process is known to be gone
 */
public record PreviousRun(boolean unclean, String summary, @Nullable Path reportFile, @Nullable ShutdownRecord report,
		@Nullable String instance) {

}
