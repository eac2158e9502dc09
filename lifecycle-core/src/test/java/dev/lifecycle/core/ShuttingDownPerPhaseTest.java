package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * {@link ComponentHandle#isShuttingDown()} turns when the component's own phase is told
 * to stop; what turns at the trigger is readiness.
 */
class ShuttingDownPerPhaseTest {

	@Test
	void aHandleTurnsWhenItsOwnPhaseIsToldToStopNotAtTheTrigger() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(60))
			.build();
		CountDownLatch inHandler = new CountDownLatch(1);
		CountDownLatch leaveHandler = new CountDownLatch(1);
		CountDownLatch highStopping = new CountDownLatch(1);
		CountDownLatch releaseHigh = new CountDownLatch(1);
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(60), () -> {
			inHandler.countDown();
			leaveHandler.await();
		});
		ComponentHandle high = manager.registerPassive("ingest", ComponentOptions.defaults().withPhase(10),
				(handle) -> {
					highStopping.countDown();
					releaseHigh.await();
				});
		ComponentHandle low = manager.register("store", ComponentOptions.defaults().withPhase(0));
		manager.start();

		try {
			manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
			assertThat(inHandler.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(manager.isReady()).as("readiness turns at the trigger").isFalse();
			assertThat(high.isShuttingDown()).as("phase 10 during the shutdown handlers").isFalse();
			assertThat(low.isShuttingDown()).as("phase 0 during the shutdown handlers").isFalse();

			leaveHandler.countDown();
			assertThat(highStopping.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(high.isShuttingDown()).as("phase 10 while it drains").isTrue();
			assertThat(low.isShuttingDown()).as("phase 0 while phase 10 drains").isFalse();
		}
		finally {
			leaveHandler.countDown();
			releaseHigh.countDown();
		}
		assertThat(low.awaitShutdown(Duration.ofSeconds(30))).as("phase 0 once phase 10 has drained").isTrue();
		low.processScope().close();
		assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CLEAN);
	}

}
