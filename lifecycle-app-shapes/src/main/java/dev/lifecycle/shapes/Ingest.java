package dev.lifecycle.shapes;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.spring.ManagedComponent;

/** An active component that takes what the page queues and drains what is left. */
@ManagedComponent("ingest")
class Ingest implements ActiveComponent {

	private final BlockingQueue<String> queue = new LinkedBlockingQueue<>();

	final AtomicLong ingested = new AtomicLong();

	void submit(String item) {
		this.queue.add(item);
	}

	@Override
	public void run(ComponentHandle handle) throws InterruptedException {
		while (!handle.isShuttingDown()) {
			if (this.queue.poll(50, TimeUnit.MILLISECONDS) != null) {
				this.ingested.incrementAndGet();
			}
			handle.reportHealthy();
		}
		while (this.queue.poll() != null) {
			this.ingested.incrementAndGet();
		}
	}

}
