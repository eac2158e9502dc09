package dev.lifecycle.streams.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * One thread that ticks at every wall-clock second and hands the second's epoch value to
 * the streams ({@link #onTick}): all instances on one machine tick the same values.
 */
@Component
public class Ticker implements DisposableBean {

	private final List<LongConsumer> listeners = new CopyOnWriteArrayList<>();

	private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "stream-ticker");
		thread.setDaemon(true);
		return thread;
	});

	public Ticker() {
		long now = System.currentTimeMillis();
		// Just after each second begins, so that second() is the new second.
		this.executor.scheduleAtFixedRate(this::tick, 1000 - now % 1000 + 5, 1000, TimeUnit.MILLISECONDS);
	}

	/** The current second since the epoch. */
	public static long second() {
		return System.currentTimeMillis() / 1000;
	}

	void onTick(LongConsumer listener) {
		this.listeners.add(listener);
	}

	private void tick() {
		long second = second();
		for (LongConsumer listener : this.listeners) {
			try {
				listener.accept(second);
			}
			catch (RuntimeException ex) {
				// One stream kind's failure must not stop the other's ticks.
			}
		}
	}

	@Override
	public void destroy() {
		this.executor.shutdownNow();
	}

}
