package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.autoconfigure.metrics.MicrometerLifecycleMetrics;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskSchedulingAutoConfiguration;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskDecorator;
import org.springframework.scheduling.concurrent.ConcurrentTaskExecutor;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Every executor a Spring Boot 4 application can have is adopted as infrastructure: it
 * stops after the components that use it, whatever its phase, finishes every task it
 * accepted (those submitted while the rest drained included), runs a task submitted after
 * its turn on the caller, and is named with its tasks' stacks when its budget runs out.
 */
class ExecutorAdoptionTests {

	private final TestRunners.Events events = new TestRunners.Events();

	enum Kind {

		THREAD_POOL_TASK_EXECUTOR {
			@Override
			Executor create() {
				ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
				executor.setCorePoolSize(2);
				executor.setThreadNamePrefix("worker-");
				return executor;
			}
		},

		SIMPLE_ASYNC_TASK_EXECUTOR {
			@Override
			Executor create() {
				return new SimpleAsyncTaskExecutor("worker-");
			}
		},

		VIRTUAL_SIMPLE_ASYNC_TASK_EXECUTOR {
			@Override
			boolean available() {
				return Runtime.version().feature() >= 21;
			}

			@Override
			Executor create() {
				SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("worker-");
				executor.setVirtualThreads(true);
				return executor;
			}
		},

		CONCURRENT_TASK_EXECUTOR {
			@Override
			Executor create() {
				return new ConcurrentTaskExecutor(Executors.newFixedThreadPool(2));
			}
		},

		THREAD_POOL_EXECUTOR_SERVICE {
			@Override
			Executor create() {
				return Executors.newFixedThreadPool(2);
			}
		},

		SINGLE_THREAD_EXECUTOR_SERVICE {
			@Override
			Executor create() {
				return Executors.newSingleThreadExecutor();
			}
		},

		VIRTUAL_THREAD_PER_TASK_EXECUTOR {
			@Override
			boolean available() {
				return Runtime.version().feature() >= 21;
			}

			@Override
			Executor create() {
				try {
					return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
				}
				catch (ReflectiveOperationException ex) {
					throw new IllegalStateException(ex);
				}
			}
		};

		boolean available() {
			return true;
		}

		abstract Executor create();

	}

	@ParameterizedTest
	@EnumSource(Kind.class)
	@Tag("jdk25")
	void anExecutorOfEveryKindStopsAfterTheComponentsThatUseItAndFinishesEveryTaskItAccepted(Kind kind) {
		assumeThat(kind.available()).as("virtual threads need Java 21").isTrue();
		Executor worker = kind.create();
		Api api = new Api(worker, this.events);
		TestRunners.lifecycle()
			.withBean("worker", Executor.class, () -> worker)
			.withBean("api", Api.class, () -> api)
			.withPropertyValues("lifecycle.drain-delay=200ms")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(view(manager, "worker").tier()).isEqualTo(Tier.INFRASTRUCTURE);
				// Numerically far above the api's 20, and still stopped after it.
				assertThat(view(manager, "worker").phase()).isEqualTo(ExecutorConfigurationSupport.DEFAULT_PHASE);
				assertThat(view(manager, "api").tier()).isEqualTo(Tier.STANDARD);
				AtomicReference<Thread> afterTurnRanOn = new AtomicReference<>();
				CountDownLatch afterTurnDone = new CountDownLatch(1);
				manager.addListener(new LifecycleListener() {
					@Override
					public void onComponentEnded(ComponentReport report) {
						if (report.name().equals("worker")) {
							ExecutorAdoptionTests.this.events.add("worker drained");
							try {
								// Through the bean, as the application's components reach
								// it.
								context.getBean("worker", Executor.class).execute(() -> {
									afterTurnRanOn.set(Thread.currentThread());
									afterTurnDone.countDown();
								});
							}
							catch (RuntimeException ex) {
								ExecutorAdoptionTests.this.events.add("after turn rejected");
							}
						}
					}
				});
				CountDownLatch started = new CountDownLatch(1);
				worker.execute(() -> {
					started.countDown();
					sleep(600);
					this.events.add("task accepted before the trigger done");
				});
				started.await(5, TimeUnit.SECONDS);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("worker").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
				assertThat(report.clean()).isTrue();
				assertThat(this.events.list()).containsSubsequence("api stopped", "worker drained");
				assertThat(this.events.list().indexOf("task accepted before the trigger done"))
					.isLessThan(this.events.list().indexOf("worker drained"));
				assertThat(this.events.list().indexOf("task submitted while the api stopped done"))
					.isBetween(this.events.list().indexOf("api stopped"), this.events.list().indexOf("worker drained"));
				assertThat(api.drainTaskThread.get()).isNotNull().isNotEqualTo(api.stopThread.get());
				assertThat(afterTurnDone.await(5, TimeUnit.SECONDS)).isTrue();
				assertThat(afterTurnRanOn.get()).as("the thread that submitted after the turn").isNotNull();
				assertThat(this.events.list()).doesNotContain("after turn rejected");
			});
	}

	@Test
	@Tag("jdk25")
	void bootsVirtualThreadExecutorAndSchedulerAreAdoptedAndTriggersFireThroughTheDrainDelay() {
		assumeThat(Runtime.version().feature()).as("virtual threads need Java 21").isGreaterThanOrEqualTo(21);
		TestRunners.lifecycle()
			.withConfiguration(
					AutoConfigurations.of(TaskExecutionAutoConfiguration.class, TaskSchedulingAutoConfiguration.class))
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(AdoptionTests.SchedulingConfiguration.class)
			.withPropertyValues("spring.threads.virtual.enabled=true", "lifecycle.drain-delay=600ms")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(context.getBean("applicationTaskExecutor")).isInstanceOf(SimpleAsyncTaskExecutor.class);
				assertThat(context.getBean("taskScheduler")).isInstanceOf(SimpleAsyncTaskScheduler.class);
				assertThat(view(manager, "applicationTaskExecutor").tier()).isEqualTo(Tier.INFRASTRUCTURE);
				assertThat(view(manager, "taskScheduler").tier()).isEqualTo(Tier.INFRASTRUCTURE);
				AdoptionTests.Ticker ticker = context.getBean(AdoptionTests.Ticker.class);
				await().atMost(Duration.ofSeconds(10)).until(() -> ticker.ticks() >= 2);
				java.util.concurrent.Future<String> running = ticker.work(Duration.ofMillis(1500));
				ticker.awaitStarted();
				Thread closer = new Thread(context::close);
				closer.start();
				await().atMost(Duration.ofSeconds(5)).until(manager::isShutdownInitiated);
				int ticksAtTrigger = ticker.ticks();
				await().atMost(Duration.ofSeconds(5)).until(() -> ticker.ticks() >= ticksAtTrigger + 3);
				closer.join(30_000);
				assertThat(running.get(1, TimeUnit.SECONDS)).isEqualTo("done");
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.component("applicationTaskExecutor").map(ComponentReport::outcome))
					.contains(Outcome.COMPLETED);
				assertThat(report.component("taskScheduler").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
				assertThat(report.clean()).isTrue();
			});
	}

	@Test
	void theApplicationsOwnTaskDecoratorStillWrapsEveryTask() {
		AtomicInteger decorated = new AtomicInteger();
		TaskDecorator own = (task) -> {
			decorated.incrementAndGet();
			return task;
		};
		TestRunners.lifecycle().withBean("worker", SimpleAsyncTaskExecutor.class, () -> {
			SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("worker-");
			executor.setTaskDecorator(own);
			return executor;
		}).run((context) -> {
			CompletableFuture<Void> done = new CompletableFuture<>();
			context.getBean(SimpleAsyncTaskExecutor.class).execute(() -> done.complete(null));
			done.get(5, TimeUnit.SECONDS);
			assertThat(decorated).hasValue(1);
		});
	}

	@Test
	void aTaskStillRunningWhenTheBudgetEndsIsNamedInTheReportWithItsStack() {
		CountDownLatch release = new CountDownLatch(1);
		TestRunners.lifecycle()
			.withBean("worker", SimpleAsyncTaskExecutor.class, () -> new SimpleAsyncTaskExecutor("stuck-worker-"))
			.withPropertyValues("lifecycle.components.worker.graceful-shutdown=300ms")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				CountDownLatch started = new CountDownLatch(1);
				context.getBean(SimpleAsyncTaskExecutor.class).execute(() -> {
					started.countDown();
					try {
						release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				});
				started.await(5, TimeUnit.SECONDS);
				try {
					context.close();
				}
				finally {
					release.countDown();
				}
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.clean()).isFalse();
				assertThat(report.component("worker").map(ComponentReport::outcome)).contains(Outcome.TIMEOUT);
				assertThat(report.diagnostics()).contains("component 'worker' did not stop within its graceful budget")
					.contains("thread \"stuck-worker-")
					.contains("CountDownLatch.await");
			});
	}

	@Test
	void anAdoptedExecutorHasNoShutdownTriggerCounters() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		TestRunners.lifecycle()
			.withBean(MeterRegistry.class, () -> registry)
			.withBean("worker", SimpleAsyncTaskExecutor.class, SimpleAsyncTaskExecutor::new)
			.run((context) -> {
				assertThat(context.getBean(LifecycleManager.class).handle("worker")).isPresent();
				assertThat(registry.find(MicrometerLifecycleMetrics.SHUTDOWN_INITIATED)
					.tag("trigger_component", "worker")
					.counters()).isEmpty();
				assertThat(
						registry.find(MicrometerLifecycleMetrics.COMPONENT_HEALTHY).tag("component", "worker").gauge())
					.isNotNull();
			});
	}

	@Test
	void anExecutorCanBeLeftToSpringOrMovedToTheStandardDrain() {
		Supplier<Executor> pool = () -> Executors.newFixedThreadPool(1);
		TestRunners.lifecycle()
			.withBean("leftAlone", Executor.class, pool)
			.withBean("standardPool", Executor.class, pool)
			.withPropertyValues("lifecycle.components.left-alone.adopt=false",
					"lifecycle.components.standard-pool.tier=standard")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				assertThat(manager.handle("leftAlone")).isEmpty();
				assertThat(view(manager, "standardPool").tier()).isEqualTo(Tier.STANDARD);
			});
	}

	private static ComponentView view(LifecycleManager manager, String name) {
		return manager.components().stream().filter((c) -> c.name().equals(name)).findFirst().orElseThrow();
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A component at phase 20 that uses the executor: its stop hands one more task to it,
	 * as a request finishing during the drain would.
	 */
	static final class Api implements SmartLifecycle {

		private final Executor executor;

		private final TestRunners.Events events;

		private final AtomicReference<Thread> stopThread = new AtomicReference<>();

		private final AtomicReference<Thread> drainTaskThread = new AtomicReference<>();

		private volatile boolean running;

		Api(Executor executor, TestRunners.Events events) {
			this.executor = executor;
			this.events = events;
		}

		@Override
		public void start() {
			this.running = true;
		}

		@Override
		public void stop() {
			this.stopThread.set(Thread.currentThread());
			this.executor.execute(() -> {
				this.drainTaskThread.set(Thread.currentThread());
				sleep(300);
				this.events.add("task submitted while the api stopped done");
			});
			this.events.add("api stopped");
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		@Override
		public int getPhase() {
			return 20;
		}

	}

}
