package dev.lifecycle.autoconfigure;

/**
 * Process signals and exit codes.
 *
 * <p>
 * The {@code lifecycle.signals.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleSignalsProperties {

	/**
	 * Whether Lifecycle handles the shutdown signals (the manual's table of signals) and
	 * exits the JVM with the exit code that says what happened (the manual's table of
	 * exit codes). When false, Spring's own shutdown hook still runs the whole sequence
	 * but Lifecycle never calls System.exit. Defaults to false in tests with
	 * lifecycle-test.
	 */
	private boolean trap = true;

	public boolean isTrap() {
		return this.trap;
	}

	public void setTrap(boolean trap) {
		this.trap = trap;
	}

}
