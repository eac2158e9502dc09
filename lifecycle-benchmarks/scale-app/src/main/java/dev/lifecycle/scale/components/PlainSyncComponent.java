package dev.lifecycle.scale.components;

import org.springframework.context.SmartLifecycle;

/**
 * Plain Spring: a {@code SmartLifecycle} whose {@code stop()} does the stop work on the
 * closing thread, the way most hand-written lifecycle beans do. Spring stops the beans of
 * one phase one after another.
 */
public class PlainSyncComponent implements SmartLifecycle {

	private final int phase;

	private final long stopMillis;

	private volatile boolean running;

	public PlainSyncComponent(int phase, long stopMillis) {
		this.phase = phase;
		this.stopMillis = stopMillis;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		try {
			Thread.sleep(this.stopMillis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return this.phase;
	}

}
