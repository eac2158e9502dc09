package dev.lifecycle.sample.ingest;

import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentHandle.CriticalSection;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP ingestion as a standard-tier passive component in a higher phase than the
 * pipeline, so the shutdown stops it first. Every append runs inside one of its critical
 * sections: once the component is told to stop, new events get 503 with
 * {@code Retry-After}, and the drain waits (within the graceful budget) for the appends
 * already admitted to commit and be acknowledged.
 *
 * <p>
 * Note the order the design gives: shutdown handlers run <em>before</em> the standard
 * drain, so ingestion still accepts events while the pipeline handler takes the final
 * checkpoint and the backup. Those late events are durable in the log (they were
 * acknowledged only after COMMIT) and the pipeline replays them at the next start;
 * nothing acknowledged is lost.
 */
@ManagedComponent(value = Ingestion.NAME, phase = Ingestion.PHASE, gracefulShutdown = "10s")
public class Ingestion implements PassiveComponent {

	/** The component name. */
	public static final String NAME = "ingestion";

	/** Higher than the pipeline's phase: stops first. */
	public static final int PHASE = 20;

	private static final Logger logger = LoggerFactory.getLogger(Ingestion.class);

	private final AtomicInteger inFlight = new AtomicInteger();

	private volatile ComponentHandle handle;

	/**
	 * Set when the app runs without Lifecycle ({@code lifecycle.enabled=false}); see
	 * {@link #acceptUnmanaged()}.
	 */
	private volatile boolean unmanaged;

	@Override
	public void start(ComponentHandle handle) {
		this.handle = handle;
		logger.info("Ingestion: accepting events on POST /events");
	}

	@Override
	public void stop(ComponentHandle handle) {
		// Returning ends the component's own work; the engine still waits for open
		// critical sections.
		logger.info("Ingestion: stopped accepting events (new ones get 503 + Retry-After); {} append(s) in flight "
				+ "will finish before the pipeline stops", this.inFlight.get());
	}

	/**
	 * Accepts events without Lifecycle, as a plain Spring Boot application would: from
	 * now until the web server stops, with no refusal and no drain of its own (Tomcat's
	 * graceful shutdown is all there is). Only the plain-Spring mode the benchmarks
	 * compare against calls this.
	 */
	public void acceptUnmanaged() {
		this.unmanaged = true;
		logger.info("Ingestion: accepting events on POST /events without Lifecycle (lifecycle.enabled=false)");
	}

	/**
	 * Whether new events are refused: not started yet, or told to stop. A volatile read.
	 */
	public boolean isRefusing() {
		ComponentHandle current = this.handle;
		return current == null ? !this.unmanaged : current.isShuttingDown();
	}

	/**
	 * Admits one append: opens a critical section if ingestion is accepting. The section
	 * is opened before the check, so a stop that races with the admission either refuses
	 * the event or waits for it; an admitted event is never cut off by the drain.
	 * @return the open section (close it when the append is acknowledged), or
	 * {@code null} if refused
	 */
	public Admission admit() {
		ComponentHandle current = this.handle;
		if (current == null) {
			if (!this.unmanaged) {
				return null;
			}
			this.inFlight.incrementAndGet();
			return new Admission(() -> {
			}, this.inFlight);
		}
		CriticalSection section = current.critical();
		if (current.isShuttingDown()) {
			section.close();
			return null;
		}
		this.inFlight.incrementAndGet();
		return new Admission(section, this.inFlight);
	}

	/** An admitted append; closing it ends the critical section. */
	public static final class Admission implements AutoCloseable {

		private final CriticalSection section;

		private final AtomicInteger inFlight;

		private boolean closed;

		Admission(CriticalSection section, AtomicInteger inFlight) {
			this.section = section;
			this.inFlight = inFlight;
		}

		@Override
		public void close() {
			if (!this.closed) {
				this.closed = true;
				this.inFlight.decrementAndGet();
				this.section.close();
			}
		}

	}

}
