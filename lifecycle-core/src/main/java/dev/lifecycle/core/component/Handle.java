package dev.lifecycle.core.component;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Internal;

/**
 * The engine's {@link ComponentHandle}: the heartbeat, health verdict and stop signal of
 * one {@link Component}, every other call handed to the component.
 */
@Internal
public final class Handle implements ComponentHandle {

	/** The heartbeat stamp of a component that has never reported. */
	public static final long NEVER = Long.MIN_VALUE;

	private final Component component;

	private final CoarseClock clock;

	private final boolean monitored;

	private final CountDownLatch stopLatch = new CountDownLatch(1);

	private final CompletableFuture<Void> stopSignal = new CompletableFuture<>();

	private volatile boolean shuttingDown;

	private volatile long lastHeartbeat = NEVER;

	private volatile boolean unhealthy;

	private volatile boolean healthy = true;

	Handle(Component component, CoarseClock clock, boolean monitored) {
		this.component = component;
		this.clock = clock;
		this.monitored = monitored;
	}

	@Override
	public String name() {
		return this.component.name();
	}

	@Override
	public boolean isShuttingDown() {
		return this.shuttingDown;
	}

	@Override
	public void awaitShutdown() throws InterruptedException {
		this.stopLatch.await();
	}

	@Override
	public boolean awaitShutdown(Duration timeout) throws InterruptedException {
		return this.stopLatch.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
	}

	@Override
	public void onShutdown(Runnable action) {
		Objects.requireNonNull(action, "action");
		this.stopSignal.thenRun(() -> {
			try {
				action.run();
			}
			catch (RuntimeException ex) {
				this.component.logCallbackFailure(ex);
			}
		});
	}

	@Override
	public CompletionStage<Void> shutdownStage() {
		return this.stopSignal.minimalCompletionStage();
	}

	@Override
	public void reportHealthy() {
		long now = this.clock.now();
		if (this.lastHeartbeat != now) {
			this.lastHeartbeat = now;
		}
		if (this.unhealthy) {
			this.unhealthy = false;
		}
	}

	@Override
	public void reportUnhealthy() {
		this.unhealthy = true;
	}

	@Override
	public boolean isHealthy() {
		// One volatile read: without a deadline, signalStop() flips this field with
		// shuttingDown.
		return this.healthy;
	}

	@Override
	public void signalFailure(String reason) {
		this.component.signalFailure(reason, null);
	}

	@Override
	public void signalFailure(Throwable cause) {
		this.component.signalFailure(String.valueOf(cause), cause);
	}

	@Override
	public void requestShutdown() {
		this.component.requestShutdown(Duration.ZERO);
	}

	@Override
	public void requestShutdown(Duration delay) {
		this.component.requestShutdown(delay);
	}

	@Override
	public void workCompleted() {
		this.component.workCompleted();
	}

	@Override
	public void unfinishedWork(List<String> work) {
		this.component.unfinishedWork(work);
	}

	@Override
	public ProcessScope processScope() {
		return this.component.processScope();
	}

	@Override
	public CriticalSection critical() {
		return this.component.openCritical();
	}

	@Override
	public void reportCut(String what) {
		Objects.requireNonNull(what, "what");
		this.component.recordCut(new Cut(what, false));
	}

	long lastHeartbeat() {
		return this.lastHeartbeat;
	}

	boolean reportedUnhealthy() {
		return this.unhealthy;
	}

	/** The monitor's verdict; returns the previous one. */
	boolean healthy(boolean healthy) {
		boolean previous = this.healthy;
		this.healthy = healthy;
		return previous;
	}

	void signalStop() {
		if (!this.monitored) {
			this.healthy = false;
		}
		this.shuttingDown = true;
		this.stopLatch.countDown();
		this.stopSignal.complete(null);
	}

	@Override
	public String toString() {
		return "ComponentHandle[" + name() + "]";
	}

}
