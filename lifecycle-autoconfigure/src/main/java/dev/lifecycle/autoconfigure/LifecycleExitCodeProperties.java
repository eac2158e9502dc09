package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.ExitCodes;

/**
 * The exit codes a service chooses. Every code and its meaning is in the manual's table
 * of exit codes, generated from {@link ExitCodes}.
 *
 * <p>
 * The {@code lifecycle.exit-code.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleExitCodeProperties {

	/**
	 * Exit code of a shutdown that cut work short and left it for a later run (a batch
	 * job stopped between chunks, a component cut at its budget). A Job keeps the
	 * default, so that its podFailurePolicy retries it; a Deployment may set 0, so that
	 * an ordinary rollout exits as clean (the report still says not clean). Between 0 and
	 * 255, and not a code that means something else.
	 */
	private int incomplete = ExitCodes.INCOMPLETE;

	public int getIncomplete() {
		return this.incomplete;
	}

	public void setIncomplete(int incomplete) {
		this.incomplete = incomplete;
	}

}
