package dev.lifecycle.core.component;

import dev.lifecycle.core.Internal;

/**
 * A monotonic clock that hot paths read instead of {@link System#nanoTime()}: one
 * volatile read. The health monitor advances it many times per poll interval, so a
 * heartbeat's stamp lags the real time by at most one tick.
 */
@Internal
public final class CoarseClock {

	private final Ticker ticker;

	private volatile long now;

	public CoarseClock(Ticker ticker) {
		this.ticker = ticker;
		this.now = ticker.nanoTime();
	}

	long now() {
		return this.now;
	}

	/** Reads the ticker and publishes its value; returns it. */
	long advance() {
		long value = this.ticker.nanoTime();
		this.now = value;
		return value;
	}

}
