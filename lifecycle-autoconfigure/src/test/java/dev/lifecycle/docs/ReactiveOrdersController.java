package dev.lifecycle.docs;

import java.util.Map;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ReactiveCriticalSections;
import jakarta.annotation.PostConstruct;
import reactor.core.publisher.Mono;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
@ManagedComponent(value = "orders-api", phase = 20, gracefulShutdown = "10s")
class ReactiveOrdersController {

	private final LifecycleManager lifecycle;

	private final OrderStore orders;

	private ComponentHandle handle;

	ReactiveOrdersController(LifecycleManager lifecycle, OrderStore orders) {
		this.lifecycle = lifecycle;
		this.orders = orders;
	}

	@PostConstruct
	void init() {
		this.handle = this.lifecycle.handle("orders-api").orElseThrow();
	}

	// tag::reactive[]
	@PostMapping("/orders")
	Mono<ResponseEntity<?>> accept(@RequestBody Mono<Map<String, Object>> order) {
		return ReactiveCriticalSections.critical(this.handle, Mono.defer(() -> { // dev.lifecycle.spring
			if (this.handle.isShuttingDown()) { // checked inside the open section
				return Mono.just(ResponseEntity.status(503).header("Retry-After", "1").build());
			}
			return order.map((body) -> ResponseEntity.ok(this.orders.store(body)));
		}));
	}
	// end::reactive[]

}
