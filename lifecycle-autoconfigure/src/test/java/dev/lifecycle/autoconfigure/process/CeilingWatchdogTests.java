package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ExitCodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ceiling's halt is bounded by the ceiling, the grace and the time given to what runs
 * before the halt, even when a hook before it never returns.
 */
class CeilingWatchdogTests {

	private final CountDownLatch stuck = new CountDownLatch(1);

	@AfterEach
	void release() {
		this.stuck.countDown();
	}

	@Test
	void aHaltHookThatNeverReturnsDelaysTheHaltByNoMoreThanTheTimeBeforeTheHalt() throws Exception {
		Duration ceiling = Duration.ofMillis(200);
		CompletableFuture<Integer> halted = new CompletableFuture<>();
		CeilingHaltHook neverReturns = () -> {
			try {
				this.stuck.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
		CeilingWatchdog watchdog = new CeilingWatchdog(ceiling, new BeanDestructionTracker(), halted::complete,
				() -> true, () -> List.of(neverReturns));
		long armed = System.nanoTime();

		watchdog.arm(armed);

		// Generous for a loaded machine, but far below "never", which is what a stuck
		// hook meant.
		assertThat(halted.get(30, TimeUnit.SECONDS)).isEqualTo(ExitCodes.CEILING);
		long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - armed);
		assertThat(tookMs).isGreaterThanOrEqualTo(ceiling.plus(CeilingWatchdog.GRACE).toMillis());
	}

}
