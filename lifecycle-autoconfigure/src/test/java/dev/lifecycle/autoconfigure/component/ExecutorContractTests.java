package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.SmartLifecycle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adoption keeps an executor's type and contract: an application's own executor class is
 * never replaced, a scheduled executor drops its triggers not yet due and waits only for
 * the task running, the JDK's common pool is never awaited as an executor, and work
 * handed to it while a component stops is waited for or named in the report.
 */
@ExtendWith(OutputCaptureExtension.class)
class ExecutorContractTests {

	@Test
	void anExecutorOfAPackagePrivateClassInjectedByThatClassKeepsItsTypeAndDrains(CapturedOutput output) {
		TestRunners.lifecycle()
			.withBean("countingExecutor", CountingExecutor.class, CountingExecutor::new)
			.withBean(CountingUser.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CountingExecutor executor = context.getBean(CountingUser.class).executor;
				assertThat(context.getBean("countingExecutor")).isSameAs(executor);
				assertThat(output).contains("executor bean 'countingExecutor' (" + CountingExecutor.class.getName()
						+ ") keeps its type: a task submitted to it after its turn in the shutdown is rejected");
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				CountDownLatch started = new CountDownLatch(1);
				AtomicBoolean finished = new AtomicBoolean();
				executor.execute(() -> {
					started.countDown();
					sleep(300);
					finished.set(true);
				});
				started.await(5, TimeUnit.SECONDS);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("countingExecutor").map(ComponentReport::outcome))
					.contains(Outcome.COMPLETED);
				assertThat(finished).isTrue();
				assertThat(executor.isTerminated()).isTrue();
			});
	}

	enum ScheduledKind {

		SCHEDULED_THREAD_POOL(() -> Executors.newScheduledThreadPool(2)),

		SINGLE_THREAD_SCHEDULED(Executors::newSingleThreadScheduledExecutor);

		private final Supplier<ScheduledExecutorService> create;

		ScheduledKind(Supplier<ScheduledExecutorService> create) {
			this.create = create;
		}

	}

	@ParameterizedTest
	@EnumSource(ScheduledKind.class)
	void aScheduledExecutorDropsTriggersNotYetDueAndWaitsOnlyForTheTaskRunning(ScheduledKind kind) {
		ScheduledExecutorService scheduler = kind.create.get();
		AtomicBoolean dueLaterRan = new AtomicBoolean();
		AtomicBoolean runningFinished = new AtomicBoolean();
		TestRunners.lifecycle()
			.withBean("scheduler", ScheduledExecutorService.class, () -> scheduler)
			.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=20s",
					"lifecycle.global-shutdown-timeout=40s")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				ScheduledExecutorService bean = context.getBean("scheduler", ScheduledExecutorService.class);
				bean.schedule(() -> dueLaterRan.set(true), 10, TimeUnit.MINUTES);
				CountDownLatch started = new CountDownLatch(1);
				bean.execute(() -> {
					started.countDown();
					sleep(500);
					runningFinished.set(true);
				});
				started.await(5, TimeUnit.SECONDS);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("scheduler").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
				assertThat(report.clean()).isTrue();
				assertThat(report.elapsed()).isLessThan(Duration.ofSeconds(15));
				assertThat(runningFinished).as("the task running at its turn finished").isTrue();
				assertThat(dueLaterRan).isFalse();
				assertThat(scheduler.isTerminated()).isTrue();
			});
	}

	@Test
	void theCommonPoolAsABeanIsNeverAwaitedAndWorkAComponentHandsItWhileStoppingIsWaitedFor(CapturedOutput output) {
		HandsWorkToTheCommonPool component = new HandsWorkToTheCommonPool(null);
		TestRunners.lifecycle()
			.withBean("commonPool", ExecutorService.class, ForkJoinPool::commonPool)
			.withBean("reporter", HandsWorkToTheCommonPool.class, () -> component)
			.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=20s",
					"lifecycle.global-shutdown-timeout=40s")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(manager.handle("commonPool")).isEmpty();
				assertThat(output).contains("executor bean 'commonPool' is the JDK's common pool");
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(component.done.getNow(false)).as("the work handed over in stop() finished").isTrue();
				assertThat(report.clean()).isTrue();
				assertThat(report.elapsed()).isLessThan(Duration.ofSeconds(15));
			});
	}

	@Test
	void workHandedToTheCommonPoolThatOutlivesItsBudgetIsNamedInTheReport() throws Exception {
		CountDownLatch release = new CountDownLatch(1);
		HandsWorkToTheCommonPool component = new HandsWorkToTheCommonPool(release);
		try {
			TestRunners.lifecycle()
				.withBean("reporter", HandsWorkToTheCommonPool.class, () -> component)
				.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=1s",
						"lifecycle.global-shutdown-timeout=40s")
				.run((context) -> {
					LifecycleManager manager = context.getBean(LifecycleManager.class);
					context.close();
					ShutdownReport report = manager.report().orElseThrow();
					assertThat(report.clean()).isFalse();
					assertThat(report.failedSteps()).contains("last step 'common pool'");
				});
		}
		finally {
			release.countDown();
		}
		assertThat(component.done.get(10, TimeUnit.SECONDS)).isTrue();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** An executor service of the application's own, package-private class. */
	static final class CountingExecutor extends AbstractExecutorService {

		private final ExecutorService delegate = Executors.newFixedThreadPool(1);

		@Override
		public void execute(Runnable command) {
			this.delegate.execute(command);
		}

		@Override
		public void shutdown() {
			this.delegate.shutdown();
		}

		@Override
		public List<Runnable> shutdownNow() {
			return this.delegate.shutdownNow();
		}

		@Override
		public boolean isShutdown() {
			return this.delegate.isShutdown();
		}

		@Override
		public boolean isTerminated() {
			return this.delegate.isTerminated();
		}

		@Override
		public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
			return this.delegate.awaitTermination(timeout, unit);
		}

	}

	/** Injects the executor by its own class, as code in its package does. */
	static final class CountingUser {

		final CountingExecutor executor;

		CountingUser(CountingExecutor executor) {
			this.executor = executor;
		}

	}

	/**
	 * A component whose stop hands a report to the common pool, as a last flush would.
	 */
	static final class HandsWorkToTheCommonPool implements SmartLifecycle {

		final CompletableFuture<Boolean> done = new CompletableFuture<>();

		private final CountDownLatch release;

		private volatile boolean running;

		/**
		 * @param release what the work waits for; {@code null} to take half a second
		 */
		HandsWorkToTheCommonPool(CountDownLatch release) {
			this.release = release;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			CompletableFuture.supplyAsync(() -> {
				if (this.release == null) {
					sleep(500);
				}
				else {
					try {
						this.release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return true;
			}).thenAccept(this.done::complete);
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return 10;
		}

	}

}
