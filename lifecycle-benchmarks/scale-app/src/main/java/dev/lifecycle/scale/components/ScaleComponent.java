package dev.lifecycle.scale.components;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;

/**
 * A Lifecycle passive component whose stop takes a fixed time (its phase comes from
 * {@code lifecycle.components.<name>.phase}, set by the registrar). Not
 * component-scanned: the registrar creates one bean definition per component.
 */
@ManagedComponent
public class ScaleComponent implements PassiveComponent {

	private final long stopMillis;

	public ScaleComponent(int phase, long stopMillis) {
		this.stopMillis = stopMillis;
	}

	@Override
	public void stop(ComponentHandle handle) throws InterruptedException {
		Thread.sleep(this.stopMillis);
	}

}
