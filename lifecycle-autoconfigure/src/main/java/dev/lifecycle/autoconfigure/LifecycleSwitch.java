package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.Internal;
import org.springframework.core.env.Environment;

/**
 * Lifecycle's off switch, {@code lifecycle.enabled}, read at run time. Conditions are
 * decided at build time in an application processed ahead of time, so every part that
 * must stay inert when the switch is off at run time asks here.
 */
@Internal
public final class LifecycleSwitch {

	/** The property that switches Lifecycle off when {@code false}. */
	public static final String PROPERTY = "lifecycle.enabled";

	private LifecycleSwitch() {
	}

	/**
	 * Whether Lifecycle is switched off in this environment.
	 * @param environment the application's environment
	 * @return {@code true} when {@code lifecycle.enabled=false}
	 */
	public static boolean isOff(Environment environment) {
		return !environment.getProperty(PROPERTY, Boolean.class, true);
	}

}
