package dev.lifecycle.core.component;

import java.time.Duration;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.ShutdownReason;
import org.jspecify.annotations.Nullable;

/**
 * Where a component reports what happens to it. The component decides its own state; what
 * follows from it (metrics and listeners, a shutdown trigger, automatic completion) is
 * decided here, so a component never reaches into the manager.
 */
@Internal
public interface ComponentEvents {

	/**
	 * Whether a shutdown has started, which makes a component's end a completion rather
	 * than a death.
	 */
	boolean isShutdownInitiated();

	/**
	 * The component reached its outcome.
	 * @param reason for a death, the shutdown reason it stands for; {@code null}
	 * otherwise
	 * @param detail what happened, for the trigger's detail
	 */
	void settled(Component component, @Nullable ShutdownReason reason, String detail);

	/** The component asked for a clean shutdown after the delay. */
	void shutdownRequested(Component component, Duration delay);

}
