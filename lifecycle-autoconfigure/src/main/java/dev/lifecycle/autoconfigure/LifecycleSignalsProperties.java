package dev.lifecycle.autoconfigure;

/**
 * Process signals and exit codes.
 *
 * <p>
 * The {@code lifecycle.signals.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleSignalsProperties {

	/**
	 * Whether Lifecycle handles SIGTERM, SIGINT and SIGHUP and exits the JVM with its
	 * exit code (0 clean, 1 failure, 128 forced by a second signal, 129 ceiling). When
	 * false, Spring's own shutdown hook still runs the whole sequence but Lifecycle never
	 * calls System.exit. Defaults to false in tests with lifecycle-test.
	 */
	private boolean trap = true;

	public boolean isTrap() {
		return this.trap;
	}

	public void setTrap(boolean trap) {
		this.trap = trap;
	}

}
