package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class CriticalWorkTest {

	private LifecycleManager newManager() {
		return LifecycleManager.builder("svc").globalShutdownTimeout(Duration.ofSeconds(20)).build();
	}

	@Test
	void aCriticalSectionHoldsItsComponentOpenUntilClosed() throws InterruptedException {
		LifecycleManager manager = newManager();
		List<String> events = new CopyOnWriteArrayList<>();
		ComponentHandle ingest = manager.registerPassive("ingest",
				ComponentOptions.defaults().withPhase(1).withGracefulShutdown(Duration.ofSeconds(10)),
				(handle) -> events.add("ingest stop returned"));
		manager.registerPassive("pipeline", ComponentOptions.defaults(), (handle) -> events.add("pipeline stop"));
		manager.start();
		ComponentHandle.CriticalSection write = ingest.critical();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		await().atMost(Duration.ofSeconds(5)).until(() -> events.contains("ingest stop returned"));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> manager.components().get(0).state() == ComponentState.STOPPING);
		assertThat(manager.components().get(0).openCriticalSections()).isEqualTo(1);
		assertThat(events).doesNotContain("pipeline stop");
		events.add("write committed");
		write.close();

		ShutdownReport report = manager.awaitTermination();
		assertThat(events).containsExactly("ingest stop returned", "write committed", "pipeline stop");
		assertThat(report.component("ingest")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void aCriticalSectionPastItsBudgetEndsAsTimeout() throws InterruptedException {
		LifecycleManager manager = newManager();
		ComponentHandle ingest = manager.registerPassive("ingest",
				ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(150)), (handle) -> {
				});
		manager.start();
		ComponentHandle.CriticalSection write = ingest.critical();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();
		write.close();

		assertThat(report.component("ingest")).get().satisfies((c) -> {
			assertThat(c.outcome()).isEqualTo(Outcome.TIMEOUT);
			assertThat(c.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(150));
		});
		assertThat(manager.components().get(0).state()).isEqualTo(ComponentState.TIMEOUT);
	}

	@Test
	void aCriticalExecutorFinishesEveryAcceptedTaskBeforeItsPhaseCompletes() throws InterruptedException {
		LifecycleManager manager = newManager();
		List<String> events = new CopyOnWriteArrayList<>();
		ExecutorService executor = manager.registerExecutor("writes",
				ComponentOptions.defaults().withPhase(1).withGracefulShutdown(Duration.ofSeconds(10)),
				Executors.newFixedThreadPool(2));
		manager.registerPassive("db", ComponentOptions.defaults(), (handle) -> events.add("db closed"));
		manager.start();
		CountDownLatch gate = new CountDownLatch(1);
		AtomicInteger done = new AtomicInteger();
		for (int i = 0; i < 10; i++) {
			executor.execute(() -> {
				try {
					gate.await();
					TimeUnit.MILLISECONDS.sleep(20);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				done.incrementAndGet();
			});
		}
		ComponentView view = manager.components().get(0);
		await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
			assertThat(view.details()).containsEntry("activeCount", 2).containsEntry("queueDepth", 8);
		});

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		gate.countDown();
		ShutdownReport report = manager.awaitTermination();

		assertThat(done).hasValue(10);
		assertThat(events).containsExactly("db closed");
		assertThat(report.component("writes")).get().extracting(ComponentReport::outcome).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void aCriticalExecutorRunsALateSubmissionInTheCaller() throws Exception {
		LifecycleManager manager = newManager();
		ExecutorService executor = manager.registerExecutor("writes", ComponentOptions.defaults(),
				Executors.newSingleThreadExecutor());
		manager.start();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		manager.awaitTermination();

		Thread caller = Thread.currentThread();
		Thread ranOn = executor.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);

		assertThat(ranOn).isSameAs(caller);
	}

}
