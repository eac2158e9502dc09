package dev.lifecycle.docs;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;

/**
 * The store the examples write to: a passive component in a lower phase than its writers,
 * which refuses writes once it has been stopped.
 */
@ManagedComponent(value = "order-store", phase = 10)
class OrderStore implements PassiveComponent {

	private final List<Object> stored = new CopyOnWriteArrayList<>();

	private volatile boolean stopped;

	Map<String, Object> store(Object order) {
		if (this.stopped) {
			throw new IllegalStateException("order store stopped; " + order + " lost");
		}
		this.stored.add(order);
		return Map.of("stored", this.stored.size());
	}

	List<Object> stored() {
		return List.copyOf(this.stored);
	}

	boolean stopped() {
		return this.stopped;
	}

	@Override
	public void stop(ComponentHandle handle) {
		this.stopped = true;
	}

}
