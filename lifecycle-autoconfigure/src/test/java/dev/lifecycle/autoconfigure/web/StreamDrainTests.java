package dev.lifecycle.autoconfigure.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.LifecycleStreamsProperties.EndAt;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownTrigger;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The order and the pace in which the drain ends the streams of the stacks registered
 * with it: spread over the pacing's window, sessions before streams before what servers
 * hold, each stream once, and everything left at once when the shutdown ends.
 */
class StreamDrainTests {

	private static final ShutdownTrigger SIGNAL = new ShutdownTrigger(ShutdownReason.SIGNAL, "test", "");

	@Test
	void theEndsOfManyStreamsAreSpreadOverTheWindowAndEachStreamEndsOnce() {
		StreamDrain drain = new StreamDrain(EndAt.SHUTDOWN, new StreamPacing(Duration.ofSeconds(2), 100),
				Duration.ZERO);
		Stack streams = new Stack("stream", 300);
		drain.register(streams);

		drain.onShutdownInitiated(SIGNAL);

		assertThat(drain.isEnded()).isTrue();
		await().atMost(Duration.ofSeconds(30)).until(() -> streams.ended.size() == 300);
		assertThat(streams.timesEnded.values()).containsOnly(1);
		// Two seconds by the schedule; a busy machine can only stretch it.
		assertThat(Duration.ofNanos(streams.last() - streams.first())).isGreaterThan(Duration.ofSeconds(1));
	}

	@Test
	void sessionsEndBeforeStreamsAndWhatServersHoldEndsLast() {
		List<String> order = new CopyOnWriteArrayList<>();
		StreamDrain drain = new StreamDrain(EndAt.SHUTDOWN, new StreamPacing(Duration.ofMillis(500), 100),
				Duration.ZERO);
		Stack streams = new Stack("stream", 20, order);
		Stack sessions = new Stack("session", 20, order);
		drain.register(streams);
		drain.registerSessions(sessions);
		drain.registerServer(() -> order.add("server"));

		drain.onShutdownInitiated(SIGNAL);

		await().atMost(Duration.ofSeconds(30)).until(() -> order.contains("server"));
		assertThat(order).hasSize(41);
		assertThat(order.subList(0, 20)).allMatch((name) -> name.startsWith("session"));
		assertThat(order.subList(20, 40)).allMatch((name) -> name.startsWith("stream"));
		assertThat(order.get(40)).isEqualTo("server");
	}

	@Test
	void whenTheShutdownEndsWhileStreamsWaitForTheirTurnTheRestEndAtOnce() {
		StreamDrain drain = new StreamDrain(EndAt.SHUTDOWN, new StreamPacing(Duration.ofSeconds(20), 10),
				Duration.ZERO);
		Stack streams = new Stack("stream", 200);
		drain.register(streams);
		drain.onShutdownInitiated(SIGNAL);
		assertThat(streams.ended).hasSizeLessThan(200);

		drain.onShutdownCompleted(null);

		assertThat(streams.ended).hasSize(200);
	}

	@Test
	void withAZeroWindowEveryStreamEndsInTheInstantOfTheEndingPoint() {
		StreamDrain drain = new StreamDrain(EndAt.SHUTDOWN, new StreamPacing(Duration.ZERO, 500), Duration.ZERO);
		Stack streams = new Stack("stream", 50);
		drain.register(streams);

		drain.onShutdownInitiated(SIGNAL);

		assertThat(streams.ended).hasSize(50);
	}

	/** Streams that note when, in which order and how often they were ended. */
	private static final class Stack implements StreamDrain.OpenStreams {

		private final Map<String, Long> ended = new ConcurrentHashMap<>();

		private final Map<String, Integer> timesEnded = new ConcurrentHashMap<>();

		private final List<String> open = new CopyOnWriteArrayList<>();

		private final List<String> order;

		Stack(String kind, int count) {
			this(kind, count, new CopyOnWriteArrayList<>());
		}

		Stack(String kind, int count, List<String> order) {
			for (int i = 0; i < count; i++) {
				this.open.add(kind + "-" + i);
			}
			this.order = order;
		}

		@Override
		public List<Runnable> open() {
			List<Runnable> enders = new ArrayList<>();
			for (String stream : this.open) {
				enders.add(() -> end(stream));
			}
			return enders;
		}

		private void end(String stream) {
			this.timesEnded.merge(stream, 1, Integer::sum);
			if (this.open.remove(stream)) {
				this.ended.put(stream, System.nanoTime());
				this.order.add(stream);
			}
		}

		long first() {
			return this.ended.values().stream().mapToLong(Long::longValue).min().orElseThrow();
		}

		long last() {
			return this.ended.values().stream().mapToLong(Long::longValue).max().orElseThrow();
		}

	}

}
