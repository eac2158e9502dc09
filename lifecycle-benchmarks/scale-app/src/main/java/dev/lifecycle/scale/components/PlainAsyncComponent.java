package dev.lifecycle.scale.components;

import org.springframework.context.SmartLifecycle;

/**
 * Plain Spring, written for speed: {@code stop(Runnable)} does the stop work on a thread
 * of its own and calls back when done, so Spring drains the beans of one phase in
 * parallel (bounded by {@code spring.lifecycle.timeout-per-shutdown-phase}).
 */
public class PlainAsyncComponent implements SmartLifecycle {

	private final int phase;

	private final long stopMillis;

	private volatile boolean running;

	public PlainAsyncComponent(int phase, long stopMillis) {
		this.phase = phase;
		this.stopMillis = stopMillis;
	}

	@Override
	public void start() {
		this.running = true;
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	@Override
	public void stop(Runnable callback) {
		Thread thread = new Thread(() -> {
			try {
				Thread.sleep(this.stopMillis);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.running = false;
			callback.run();
		}, "stop-" + this.phase);
		thread.start();
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
