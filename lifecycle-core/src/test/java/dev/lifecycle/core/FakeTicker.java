package dev.lifecycle.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import dev.lifecycle.core.component.Ticker;

/** A ticker the test moves by hand. */
final class FakeTicker implements Ticker {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	@Override
	public long nanoTime() {
		return this.now.get();
	}

	void advance(Duration duration) {
		this.now.addAndGet(duration.toNanos());
	}

}
