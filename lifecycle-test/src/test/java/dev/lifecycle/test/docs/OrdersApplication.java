package dev.lifecycle.test.docs;

import dev.lifecycle.spring.ManagedComponent;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The application the testing page's example tests: one plain component. */
@SpringBootApplication
class OrdersApplication {

	@ManagedComponent(value = "orders-api", phase = 20, gracefulShutdown = "10s")
	static class OrdersApi {

	}

}
