package dev.lifecycle.docs;

// tag::order-consumer[]
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.spring.ManagedComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

@ManagedComponent(value = "order-consumer", phase = 10, gracefulShutdown = "20s", livenessDeadline = "30s")
public class OrderConsumer implements ActiveComponent {

	private static final Logger log = LoggerFactory.getLogger(OrderConsumer.class);

	private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

	public void submit(String order) {
		queue.add(order);
	}

	@Override
	public void run(ComponentHandle handle) throws InterruptedException {
		while (!handle.isShuttingDown()) { // true once phase 10 is told to stop
			String order = queue.poll(1, TimeUnit.SECONDS);
			if (order != null) {
				// the drain waits for this (within 20s)
				try (var section = handle.critical()) {
					process(order);
				}
			}
			handle.reportHealthy(); // heartbeat; none for 30s = stalled
		}
		int left = queue.size();
		for (String order; (order = queue.poll()) != null;) {
			process(order); // finish what was accepted
		}
		log.info("order-consumer: drained ({} queued order(s) processed)", left);
	} // returning while shutting down = completed

	private void process(String order) {
		log.info("processed {}", order);
	}

}
// end::order-consumer[]
