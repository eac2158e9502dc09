package dev.lifecycle.docs;

import java.util.Map;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.ManagedComponent;
import jakarta.annotation.PostConstruct;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

// tag::plain-component[]
@RestController
@ManagedComponent(value = "orders-api", phase = 20, gracefulShutdown = "10s")
class OrdersController {

	private final LifecycleManager lifecycle;

	private final OrderStore orders;

	private ComponentHandle handle;

	OrdersController(LifecycleManager lifecycle, OrderStore orders) {
		this.lifecycle = lifecycle;
		this.orders = orders;
	}

	@PostConstruct
	void init() {
		this.handle = this.lifecycle.handle("orders-api").orElseThrow();
	}

	@PostMapping("/orders")
	ResponseEntity<?> accept(@RequestBody Map<String, Object> order) {
		try (var section = this.handle.critical()) { // open first: the drain now waits
														// for this request
			// then check: no request slips in after the drain
			if (this.handle.isShuttingDown()) {
				return ResponseEntity.status(503).header("Retry-After", "1").build();
			}
			return ResponseEntity.accepted().body(this.orders.store(order));
		}
	}

}
// end::plain-component[]
