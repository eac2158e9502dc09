package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HealthMonitorTest {

	private final FakeTicker ticker = new FakeTicker();

	private final InMemoryLifecycleMetrics metrics = new InMemoryLifecycleMetrics();

	private final LifecycleManager manager = LifecycleManager.builder("svc")
		.ticker(this.ticker)
		.listener(this.metrics)
		.manualHealthPolling()
		.build();

	@AfterEach
	void shutDown() throws InterruptedException {
		this.manager.triggerShutdown(ShutdownReason.REQUESTED, "test");
		this.manager.awaitTermination(Duration.ofSeconds(10));
	}

	private ComponentHandle monitored(String name, int threshold) {
		return this.manager.register(name,
				ComponentOptions.defaults()
					.withLivenessDeadline(Duration.ofSeconds(10))
					.withStallThreshold(threshold)
					.withGracefulShutdown(Duration.ofMillis(50)));
	}

	private void pollAfter(Duration elapsed) {
		this.ticker.advance(elapsed);
		this.manager.pollHealth();
	}

	@Test
	void stallTriggersShutdown() {
		ComponentHandle consumer = monitored("consumer", 1);
		this.manager.start();
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));
		assertThat(this.manager.isShutdownInitiated()).isFalse();

		pollAfter(Duration.ofSeconds(11));

		assertThat(this.manager.trigger()).hasValue(new ShutdownTrigger(ShutdownReason.STALLED, "consumer",
				"no heartbeat for 12000 ms (liveness deadline PT10S, 1 consecutive stalled check(s))"));
		assertThat(consumer.isHealthy()).isFalse();
		// Heard on the sequence's thread.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.metrics.initiated("consumer", ShutdownReason.STALLED) == 1);
	}

	@Test
	void stallThresholdExceededTriggersShutdown() {
		ComponentHandle consumer = monitored("consumer", 3);
		this.manager.start();
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		pollAfter(Duration.ofSeconds(11));
		pollAfter(Duration.ofSeconds(5));
		assertThat(this.manager.isShutdownInitiated()).as("two stalled checks of three").isFalse();
		assertThat(consumer.isHealthy()).isTrue();

		pollAfter(Duration.ofSeconds(5));
		assertThat(this.manager.trigger()).get()
			.extracting(ShutdownTrigger::reason, ShutdownTrigger::component)
			.containsExactly(ShutdownReason.STALLED, "consumer");
	}

	@Test
	void stallThresholdAllowsRecovery() {
		ComponentHandle consumer = monitored("consumer", 2);
		this.manager.start();
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		pollAfter(Duration.ofSeconds(11));
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));
		pollAfter(Duration.ofSeconds(11));
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		assertThat(this.manager.isShutdownInitiated()).isFalse();
		assertThat(consumer.isHealthy()).isTrue();
	}

	@Test
	void reportUnhealthyCountsAsAStalledCheck() {
		ComponentHandle consumer = monitored("consumer", 1);
		this.manager.start();
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		consumer.reportHealthy();
		consumer.reportUnhealthy();
		pollAfter(Duration.ofSeconds(1));

		assertThat(this.manager.trigger()).get().extracting(ShutdownTrigger::reason).isEqualTo(ShutdownReason.STALLED);
	}

	@Test
	void startingComponentDoesNotTriggerStall() {
		ComponentHandle consumer = monitored("consumer", 1);
		this.manager.start();

		pollAfter(Duration.ofMinutes(5));
		pollAfter(Duration.ofMinutes(5));

		assertThat(this.manager.isShutdownInitiated()).isFalse();
		assertThat(consumer.isHealthy()).isTrue();
		assertThat(this.manager.components().get(0).healthStatus()).isEqualTo(HealthStatus.STARTING);
	}

	@Test
	void advisoryStallDoesNotTriggerShutdown() {
		ComponentHandle backup = this.manager.register("backup-target",
				ComponentOptions.defaults().withTier(Tier.ADVISORY).withLivenessDeadline(Duration.ofSeconds(10)));
		this.manager.start();
		backup.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		pollAfter(Duration.ofSeconds(30));
		pollAfter(Duration.ofSeconds(30));

		assertThat(this.manager.isShutdownInitiated()).isFalse();
		assertThat(backup.isHealthy()).isFalse();
		assertThat(this.metrics.healthy("backup-target")).isZero();
	}

	@Test
	void advisoryIsHealthyFlipsAndRecovers() {
		ComponentHandle backup = this.manager.register("backup-target",
				ComponentOptions.defaults()
					.withTier(Tier.ADVISORY)
					.withLivenessDeadline(Duration.ofSeconds(10))
					.withStallThreshold(2));
		this.manager.start();
		assertThat(backup.isHealthy()).as("starts healthy").isTrue();
		backup.reportHealthy();
		pollAfter(Duration.ofSeconds(1));

		pollAfter(Duration.ofSeconds(11));
		assertThat(backup.isHealthy()).as("one stalled check of two").isTrue();
		pollAfter(Duration.ofSeconds(11));
		assertThat(backup.isHealthy()).as("two stalled checks").isFalse();
		assertThat(this.manager.components().get(0).healthStatus()).isEqualTo(HealthStatus.STALLED);

		backup.reportHealthy();
		pollAfter(Duration.ofSeconds(1));
		assertThat(backup.isHealthy()).as("recovered").isTrue();
		assertThat(this.metrics.healthy("backup-target")).isEqualTo(1);
		assertThat(this.manager.isShutdownInitiated()).isFalse();
	}

	@Test
	void heartbeatAgeIsMeasuredFromTheLastObservedHeartbeat() {
		ComponentHandle consumer = monitored("consumer", 1);
		this.manager.start();
		ComponentView view = this.manager.components().get(0);
		assertThat(view.heartbeatAge()).isEmpty();

		pollAfter(Duration.ofSeconds(1));
		consumer.reportHealthy();
		pollAfter(Duration.ofSeconds(3));

		assertThat(view.heartbeatAge()).hasValue(Duration.ofSeconds(3));
	}

	@Test
	void componentWithoutDeadlineIsHealthyUntilToldToStop() throws InterruptedException {
		ComponentHandle plain = this.manager.register("plain", ComponentOptions.defaults());
		this.manager.start();
		assertThat(plain.isHealthy()).isTrue();

		this.manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		plain.awaitShutdown();

		assertThat(plain.isHealthy()).isFalse();
		plain.processScope().close();
	}

	@Test
	void monitorPollsOnItsOwnWhenAComponentHasADeadline() {
		LifecycleManager polling = LifecycleManager.builder("svc").healthPollInterval(Duration.ofMillis(20)).build();
		ComponentHandle consumer = polling.register("consumer",
				ComponentOptions.defaults().withLivenessDeadline(Duration.ofMillis(100)));
		polling.start();
		consumer.reportHealthy();

		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(polling.trigger()).get()
				.extracting(ShutdownTrigger::reason)
				.isEqualTo(ShutdownReason.STALLED));
		consumer.processScope().close();
	}

}
