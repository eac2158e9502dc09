package dev.lifecycle.autoconfigure;

/**
 * Adoption of the context's other Lifecycle beans (listener containers, schedulers, task
 * executors, your own SmartLifecycle beans) into the shutdown sequence.
 *
 * <p>
 * The {@code lifecycle.adoption.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleAdoptionProperties {

	/**
	 * Whether every Lifecycle bean that Lifecycle does not run itself becomes a
	 * component: it keeps running through the drain delay and the shutdown handlers, then
	 * stops in the standard drain at its Spring phase. When false, Spring stops those
	 * beans as soon as the context starts closing. Opt a single bean out with
	 * 'lifecycle.components.<bean>.adopt=false'.
	 */
	private boolean enabled = true;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

}
