package dev.lifecycle.autoconfigure.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.autoconfigure.LifecycleStreamsProperties;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * How long stream ends are spread over, and the schedule: even slots with jitter, a few
 * streams at once, thousands over the window, and windows that cannot fit refused.
 */
class StreamPacingTests {

	private static final Duration DRAIN = Duration.ofSeconds(5);

	private static final Duration GLOBAL = Duration.ofSeconds(60);

	private static final Map<String, Duration> BUDGETS = Map.of("spring.lifecycle.timeout-per-shutdown-phase",
			Duration.ofSeconds(30), "spring.grpc.server.shutdown.grace-period", Duration.ofSeconds(-1));

	@Test
	void aFewStreamsEndWithinMillisecondsAndThousandsOverTheWholeWindow() {
		StreamPacing pacing = new StreamPacing(Duration.ofSeconds(5), 500);
		assertThat(pacing.spread(1)).isZero();
		assertThat(pacing.spread(10)).isEqualTo(Duration.ofMillis(20));
		assertThat(pacing.spread(1000)).isEqualTo(Duration.ofSeconds(2));
		assertThat(pacing.spread(5000)).isEqualTo(Duration.ofSeconds(5));
		assertThat(new StreamPacing(Duration.ZERO, 500).spread(5000)).isZero();
	}

	@Test
	void eachStreamEndsAtARandomInstantOfItsOwnEqualSlotSoNoSlotGetsMoreThanItsShare() {
		StreamPacing pacing = new StreamPacing(Duration.ofSeconds(5), 500);
		int streams = 3000;
		long[] schedule = pacing.schedule(streams, new SplittableRandom(7));
		double slot = Duration.ofSeconds(5).toNanos() / (double) streams;
		for (int k = 0; k < streams; k++) {
			assertThat((double) schedule[k]).as("end %d", k).isBetween(k * slot, (k + 1) * slot);
		}
		long[] again = pacing.schedule(streams, new SplittableRandom(8));
		assertThat(again).as("jittered, not a fixed grid").isNotEqualTo(schedule);
	}

	@Test
	void endsThatFellBehindTheirScheduleCatchUpAtMostAQuarterFasterThanTheEvenRateNotInOneBurst() {
		StreamPacing pacing = new StreamPacing(Duration.ofSeconds(5), 100);
		int streams = 500;
		long[] schedule = pacing.schedule(streams, new SplittableRandom(11));
		long slot = Duration.ofSeconds(5).toNanos() / streams;
		long stall = 40 * slot;
		long clock = 0;
		long previous = Long.MIN_VALUE / 2;
		List<Long> ends = new ArrayList<>();
		for (int k = 0; k < streams; k++) {
			long due = pacing.due(schedule[k], previous, streams);
			// The pacer is paused for 40 slots when the 100th end is due.
			clock = Math.max(clock, due) + ((k == 100) ? stall : 0);
			previous = clock;
			ends.add(clock);
		}
		for (int k = 0; k + 10 < streams; k++) {
			assertThat(ends.get(k + 10) - ends.get(k)).as("10 gaps from end %d", k)
				.isGreaterThanOrEqualTo(10 * slot * 4 / 5);
		}
		assertThat(ends.get(streams - 1)).as("caught up before the window's end")
			.isLessThanOrEqualTo(Duration.ofSeconds(5).toNanos() + slot);
	}

	@Test
	void withoutAWindowOfItsOwnThePacingTakesTheDrainDelayBoundedByTheBudgets() {
		LifecycleStreamsProperties streams = new LifecycleStreamsProperties();
		assertThat(StreamPacing.of(streams, DRAIN, GLOBAL, BUDGETS).window()).isEqualTo(DRAIN);
		assertThat(StreamPacing.of(streams, Duration.ZERO, GLOBAL, BUDGETS).window()).isZero();
		assertThat(StreamPacing.of(streams, Duration.ofSeconds(20), GLOBAL, BUDGETS).window())
			.as("half the web server's budget")
			.isEqualTo(Duration.ofSeconds(15));
		assertThat(StreamPacing.of(streams, DRAIN, Duration.ofSeconds(9), BUDGETS).window())
			.as("half of what the global timeout leaves after the drain delay")
			.isEqualTo(Duration.ofSeconds(2));
		assertThat(StreamPacing
			.of(streams, DRAIN, GLOBAL, Map.of("spring.grpc.server.shutdown.grace-period", Duration.ofSeconds(1)))
			.window()).as("half of gRPC's grace period").isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void aWindowThatTheWebServersBudgetOrTheGlobalTimeoutCannotHoldIsRefusedNamingTheFix() {
		LifecycleStreamsProperties streams = new LifecycleStreamsProperties();
		streams.setEndWindow(Duration.ofSeconds(30));
		assertThatExceptionOfType(InvalidLifecycleConfigurationException.class)
			.isThrownBy(() -> StreamPacing.of(streams, DRAIN, GLOBAL, BUDGETS))
			.satisfies((ex) -> {
				assertThat(ex.getSetting()).isEqualTo("lifecycle.streams.end-window");
				assertThat(ex.getAction()).contains("spring.lifecycle.timeout-per-shutdown-phase");
			});
		streams.setEndWindow(Duration.ofSeconds(10));
		assertThatExceptionOfType(InvalidLifecycleConfigurationException.class)
			.isThrownBy(() -> StreamPacing.of(streams, DRAIN, Duration.ofSeconds(12), BUDGETS))
			.satisfies((ex) -> assertThat(ex.getAction()).contains("lifecycle.global-shutdown-timeout"));
		streams.setEndWindow(Duration.ofSeconds(-1));
		assertThatExceptionOfType(InvalidLifecycleConfigurationException.class)
			.isThrownBy(() -> StreamPacing.of(streams, DRAIN, GLOBAL, BUDGETS));
		streams.setEndWindow(null);
		streams.setEndRate(0);
		assertThatExceptionOfType(InvalidLifecycleConfigurationException.class)
			.isThrownBy(() -> StreamPacing.of(streams, DRAIN, GLOBAL, BUDGETS))
			.satisfies((ex) -> assertThat(ex.getSetting()).isEqualTo("lifecycle.streams.end-rate"));
	}

}
