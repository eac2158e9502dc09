package dev.lifecycle.docs;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.ManagedComponent;
import jakarta.annotation.PostConstruct;

import org.springframework.kafka.annotation.KafkaListener;

// tag::kafka-listener[]
@ManagedComponent(value = "orders-listener", phase = 20, gracefulShutdown = "30s")
class OrdersListener {

	private final LifecycleManager lifecycle;

	private final OrderStore store; // a component in a lower phase, e.g. phase 10

	private ComponentHandle handle;

	OrdersListener(LifecycleManager lifecycle, OrderStore store) {
		this.lifecycle = lifecycle;
		this.store = store;
	}

	@PostConstruct
	void init() {
		this.handle = this.lifecycle.handle("orders-listener").orElseThrow();
	}

	@KafkaListener(id = "orders", topics = "orders")
	void onOrder(String order) {
		try (var section = this.handle.critical()) { // phase 10 stops only after this
														// returns
			this.store.store(order);
		}
	}

}
// end::kafka-listener[]
