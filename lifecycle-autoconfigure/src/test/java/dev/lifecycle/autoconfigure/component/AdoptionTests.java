package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring {@code Lifecycle} beans that Lifecycle did not write are adopted: they keep
 * running through the drain delay and the shutdown handlers and stop in the standard
 * drain at their Spring phase, on one axis with {@code @ManagedComponent} phases.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
public class AdoptionTests {

	private final TestRunners.Events events = new TestRunners.Events();

	@Test
	void aSmartLifecycleAtSpringsDefaultPhaseRunsThroughTheHandlersThenStopsBeforeAPhase10Component() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ListenerAndPipelineConfiguration.class)
			.withPropertyValues("lifecycle.drain-delay=200ms")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				ComponentView listener = view(manager, "listener");
				assertThat(listener.phase()).isEqualTo(SmartLifecycle.DEFAULT_PHASE);
				assertThat(listener.tier()).isEqualTo(Tier.STANDARD);
				LifecycleEndpoint.OptionsDescriptor options = new LifecycleEndpoint(manager,
						context.getBean(ComponentLedger.class))
					.component("listener")
					.options();
				assertThat(options.adopted()).isTrue();
				assertThat(options.gracefulShutdown()).isEqualTo("PT30S");
				assertThat(options.origins()).containsEntry("phase", "spring")
					.containsEntry("gracefulShutdown", "spring");
				assertThat(new LifecycleEndpoint(manager, context.getBean(ComponentLedger.class)).component("pipeline")
					.options()
					.adopted()).isFalse();
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("listener").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
				assertThat(report.exitCode()).isZero();
			});
		assertThat(this.events.list()).containsSubsequence("start listener", "handler (listener running)",
				"stop listener", "stop pipeline");
	}

	@Test
	void beansOfOnePhaseStopConcurrently() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withBean("slowOne", SlowLifecycle.class, () -> new SlowLifecycle("one", this.events))
			.withBean("slowTwo", SlowLifecycle.class, () -> new SlowLifecycle("two", this.events))
			.run((context) -> context.close());
		// Both are told to stop before either has finished.
		assertThat(this.events.list().subList(0, 2)).containsExactlyInAnyOrder("stopping one", "stopping two");
	}

	@Test
	void asInSpringABeanOfThePhaseStopsOnlyAfterTheBeansThatDependOnItWhileOthersStopConcurrently() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withBean("pool", SlowLifecycle.class, () -> new SlowLifecycle("pool", this.events))
			.withBean("consumer", SlowLifecycle.class, () -> new SlowLifecycle("consumer", this.events),
					(definition) -> definition.setDependsOn("pool"))
			.withBean("other", SlowLifecycle.class, () -> new SlowLifecycle("other", this.events))
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				context.close();
				assertThat(manager.report().orElseThrow().clean()).isTrue();
			});
		assertThat(this.events.list()).containsSubsequence("stopping consumer", "stopped consumer", "stopping pool",
				"stopped pool");
		// The independent bean is not held back by the pair.
		assertThat(this.events.list().indexOf("stopping other"))
			.isLessThan(this.events.list().indexOf("stopped consumer"));
	}

	@Test
	void aStopThatThrowsIsDiedAtOnceAndTheExitCodeIsOne() {
		TestRunners.lifecycle()
			.withBean("broken", ThrowingLifecycle.class, ThrowingLifecycle::new)
			.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=60s",
					"lifecycle.global-shutdown-timeout=90s")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("broken").map(ComponentReport::outcome)).contains(Outcome.DIED);
				assertThat(report.exitCode()).isEqualTo(1);
				// Not the 60 s budget: the throw settled it.
				assertThat(report.elapsed()).isLessThan(Duration.ofSeconds(10));
			});
	}

	@Test
	void theBudgetIsSpringsPhaseTimeoutUnlessTheComponentHasItsOwn() {
		TestRunners.lifecycle()
			.withBean("stuck", StuckLifecycle.class, StuckLifecycle::new)
			.withBean("other", SlowLifecycle.class, () -> new SlowLifecycle("other", this.events))
			.withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=300ms",
					"lifecycle.components.other.graceful-shutdown=5s")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("stuck").map(ComponentReport::outcome)).contains(Outcome.TIMEOUT);
				assertThat(report.component("other").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
				assertThat(report.exitCode()).isEqualTo(ExitCodes.INCOMPLETE);
			});
	}

	@Test
	void phaseCanBeOverriddenWithAProperty() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ListenerAndPipelineConfiguration.class)
			.withPropertyValues("lifecycle.components.listener.phase=5")
			.run((context) -> {
				assertThat(view(context.getBean(LifecycleManager.class), "listener").phase()).isEqualTo(5);
				context.close();
			});
		assertThat(this.events.list()).containsSubsequence("stop pipeline", "stop listener");
	}

	@Test
	void aBeanOptedOutStopsWhereSpringWouldBeforeTheHandlers() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ListenerAndPipelineConfiguration.class)
			.withPropertyValues("lifecycle.components.listener.adopt=false")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(manager.handle("listener")).isEmpty();
				context.close();
			});
		assertThat(this.events.list()).containsSubsequence("stop listener", "handler (listener stopped)",
				"stop pipeline");
	}

	@Test
	void adoptionCanBeSwitchedOffForTheWholeApplication() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ListenerAndPipelineConfiguration.class)
			.withPropertyValues("lifecycle.adoption.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(AdoptingLifecycleProcessor.class);
				assertThat(context.getBean(LifecycleManager.class).handle("listener")).isEmpty();
				context.close();
			});
		assertThat(this.events.list()).containsSubsequence("stop listener", "handler (listener stopped)");
	}

	@Test
	void theProcessorIsTheContextsLifecycleProcessorAndAUserProcessorWins() {
		TestRunners.lifecycle()
			.run((context) -> assertThat(context.getBean("lifecycleProcessor"))
				.isInstanceOf(AdoptingLifecycleProcessor.class));
		TestRunners.lifecycle()
			.withBean("lifecycleProcessor", org.springframework.context.support.DefaultLifecycleProcessor.class)
			.run((context) -> assertThat(context).doesNotHaveBean(AdoptingLifecycleProcessor.class));
	}

	@Test
	void scheduledTriggersKeepFiringAndAsyncTasksAreAcceptedUntilTheExecutorsTurnAndRunningTasksComplete() {
		TestRunners.lifecycle()
			.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(SchedulingConfiguration.class)
			.withPropertyValues("lifecycle.drain-delay=600ms")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(manager.handle("taskScheduler")).isPresent();
				assertThat(manager.handle("applicationTaskExecutor")).isPresent();
				Ticker ticker = context.getBean(Ticker.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> ticker.ticks() >= 2);
				Future<String> running = ticker.work(Duration.ofMillis(1500));
				ticker.awaitStarted();
				Thread closer = new Thread(context::close);
				closer.start();
				await().atMost(Duration.ofSeconds(5)).until(manager::isShutdownInitiated);
				int ticksAtTrigger = ticker.ticks();
				// During the drain delay, triggers still fire and new async work is
				// accepted.
				await().atMost(Duration.ofSeconds(5)).until(() -> ticker.ticks() >= ticksAtTrigger + 3);
				Future<String> accepted = ticker.work(Duration.ofMillis(10));
				assertThat(accepted.get(5, TimeUnit.SECONDS)).isEqualTo("done");
				closer.join(30_000);
				assertThat(running.get(1, TimeUnit.SECONDS)).isEqualTo("done");
				assertThat(ticker.wasInterrupted()).isFalse();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("applicationTaskExecutor").map(ComponentReport::outcome))
					.contains(Outcome.COMPLETED);
				assertThat(report.component("taskScheduler").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
				int ticksAtEnd = ticker.ticks();
				// No trigger fires after the scheduler's turn, however long one waits.
				await().during(Duration.ofMillis(300))
					.atMost(Duration.ofSeconds(5))
					.until(() -> ticker.ticks() == ticksAtEnd);
			});
	}

	private static ComponentView view(LifecycleManager manager, String name) {
		return manager.components().stream().filter((c) -> c.name().equals(name)).findFirst().orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	static class ListenerAndPipelineConfiguration {

		@Bean
		RecordingLifecycle listener(TestRunners.Events events) {
			return new RecordingLifecycle("listener", events);
		}

		@Bean
		Pipeline pipeline(TestRunners.Events events) {
			return new Pipeline(events);
		}

		@Bean
		Handler handler(TestRunners.Events events, RecordingLifecycle listener) {
			return new Handler(events, listener);
		}

	}

	/**
	 * An ordinary SmartLifecycle at Spring's default phase, where listener containers
	 * live.
	 */
	static class RecordingLifecycle implements SmartLifecycle {

		private final String name;

		private final TestRunners.Events events;

		private volatile boolean running;

		RecordingLifecycle(String name, TestRunners.Events events) {
			this.name = name;
			this.events = events;
		}

		@Override
		public void start() {
			this.events.add("start " + this.name);
			this.running = true;
		}

		@Override
		public void stop() {
			this.events.add("stop " + this.name);
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@ManagedComponent(value = "pipeline", phase = 10)
	static class Pipeline implements PassiveComponent {

		private final TestRunners.Events events;

		Pipeline(TestRunners.Events events) {
			this.events = events;
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.events.add("stop pipeline");
		}

	}

	static class Handler {

		private final TestRunners.Events events;

		private final RecordingLifecycle listener;

		Handler(TestRunners.Events events, RecordingLifecycle listener) {
			this.events = events;
			this.listener = listener;
		}

		@ShutdownHandler(timeout = "5s")
		void checkpoint() {
			this.events.add("handler (listener " + (this.listener.isRunning() ? "running" : "stopped") + ")");
		}

	}

	public static class SlowLifecycle implements SmartLifecycle {

		private final String name;

		private final TestRunners.Events events;

		private volatile boolean running;

		public SlowLifecycle(String name, TestRunners.Events events) {
			this.name = name;
			this.events = events;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.events.add("stopping " + this.name);
			try {
				Thread.sleep(300);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.events.add("stopped " + this.name);
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	static class ThrowingLifecycle implements SmartLifecycle {

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			throw new IllegalStateException("client library refused to close");
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	static class StuckLifecycle implements SmartLifecycle {

		private final CountDownLatch never = new CountDownLatch(1);

		private volatile boolean running;

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			try {
				this.never.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@EnableAsync
	static class SchedulingConfiguration {

		@Bean
		Ticker ticker() {
			return new Ticker();
		}

	}

	static class Ticker {

		private final AtomicInteger ticks = new AtomicInteger();

		private final CountDownLatch started = new CountDownLatch(1);

		private volatile boolean interrupted;

		public int ticks() {
			return this.ticks.get();
		}

		public void awaitStarted() throws InterruptedException {
			this.started.await(10, TimeUnit.SECONDS);
		}

		public boolean wasInterrupted() {
			return this.interrupted;
		}

		@Scheduled(fixedRate = 50)
		void tick() {
			this.ticks.incrementAndGet();
		}

		@Async
		public Future<String> work(Duration duration) {
			this.started.countDown();
			try {
				Thread.sleep(duration.toMillis());
			}
			catch (InterruptedException ex) {
				this.interrupted = true;
				return java.util.concurrent.CompletableFuture.completedFuture("interrupted");
			}
			return java.util.concurrent.CompletableFuture.completedFuture("done");
		}

	}

}
