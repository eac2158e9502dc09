package dev.lifecycle.core;

import java.time.Duration;

/**
 * How one component ended in a shutdown.
 *
 * @param name the component
 * @param tier its tier
 * @param phase its phase
 * @param outcome how it ended
 * @param duration from the moment it was told to stop to its end; zero if it ended before
 */
public record ComponentReport(String name, Tier tier, int phase, Outcome outcome, Duration duration) {
}
