package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.InvalidOptionFailureAnalyzer;
import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.autoconfigure.actuate.LifecycleEndpoint;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.Tier;
import dev.lifecycle.spring.FinalAction;
import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import jakarta.annotation.PostConstruct;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ManagedComponentTests {

	private final TestRunners.Events events = new TestRunners.Events();

	@Test
	void startsComponentsLowestPhaseFirstAndStopsThemHighestPhaseFirst() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(Duration.ofSeconds(10)).until(() -> this.events.list().contains("run pipeline"));
			});
		assertThat(this.events.list()).containsSubsequence("start store", "start ingest")
			.containsSubsequence("stop ingest", "stop pipeline", "stop store");
	}

	@Test
	void runsTheWholeSequenceInOrderWhenTheContextCloses() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class, HandlersConfiguration.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(Duration.ofSeconds(10)).until(() -> this.events.list().contains("run pipeline"));
			});
		// Handlers by @Order while components still run, drain by phase, final actions in
		// reverse order of registration.
		assertThat(this.events.list()).containsSubsequence("handler checkpoint (ingest running)",
				"handler backup (ingest running)", "handler core (ingest running)", "stop ingest", "stop pipeline",
				"stop store", "final second", "final first");
	}

	@Test
	void closingTheContextBlocksUntilTheShutdownReport() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class, SlowConfiguration.class)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				context.close();
				ShutdownReport report = manager.report().orElseThrow();
				assertThat(report.trigger().component()).isEqualTo("context-close");
				assertThat(report.component("slow").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
				assertThat(report.component("slow").orElseThrow().duration())
					.isGreaterThanOrEqualTo(Duration.ofMillis(200));
				assertThat(report.exitCode()).isZero();
			});
	}

	@Test
	void propertiesOverrideAnnotationValues() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class)
			.withPropertyValues("lifecycle.components.pipeline.phase=20",
					"lifecycle.components.pipeline.graceful-shutdown=3s")
			.run((context) -> {
				ComponentView pipeline = view(context.getBean(LifecycleManager.class), "pipeline");
				assertThat(pipeline.phase()).isEqualTo(20);
				await().atMost(Duration.ofSeconds(10)).until(() -> this.events.list().contains("run pipeline"));
			});
		assertThat(this.events.list()).containsSubsequence("stop pipeline", "stop ingest");
	}

	@Test
	void propertiesOverrideTheOptionsOfAComponentRegisteredFromCode() {
		TestRunners.lifecycle()
			.withUserConfiguration(CodeRegisteredConfiguration.class)
			.withPropertyValues("lifecycle.components.payment-executor.phase=12",
					"lifecycle.components.payment-executor.graceful-shutdown=3s",
					"lifecycle.components.payment-executor.finite=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(view(context.getBean(LifecycleManager.class), "payment-executor").phase()).isEqualTo(12);
				LifecycleEndpoint.ComponentDescriptor descriptor = new LifecycleEndpoint(
						context.getBean(LifecycleManager.class), context.getBean(ComponentLedger.class))
					.component("payment-executor");
				assertThat(descriptor.options().phase()).isEqualTo(12);
				assertThat(descriptor.options().origins()).containsEntry("phase", "property")
					.containsEntry("gracefulShutdown", "property")
					.containsEntry("finite", "property")
					.containsEntry("tier", "code");
			});
	}

	@Test
	void anInvalidPropertyOnAComponentRegisteredFromCodeFailsTheStartNamingTheProperty() {
		TestRunners.lifecycle()
			.withUserConfiguration(CodeRegisteredConfiguration.class)
			.withPropertyValues("lifecycle.components.payment-executor.tier=advisory")
			.run((context) -> {
				assertThat(context).hasFailed();
				org.springframework.boot.diagnostics.FailureAnalysis analysis = new InvalidOptionFailureAnalyzer(null)
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription())
					.contains("'lifecycle.components.payment-executor.liveness-deadline' is required for an ADVISORY");
				assertThat(analysis.getAction())
					.contains("Set 'lifecycle.components.payment-executor.liveness-deadline'");
			});
	}

	@Test
	void aComponentMadeFiniteByPropertyEndsTheApplicationWhenItsWorkIsDone() {
		TestRunners.lifecycle()
			.withUserConfiguration(BatchConfiguration.class)
			// The context stays open for the assertions; in an application the completion
			// closes it.
			.withPropertyValues("lifecycle.components.batch.finite=true", "lifecycle.close-context=false")
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
				assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.COMPLETED);
				assertThat(report.exitCode()).isZero();
			});
	}

	@Test
	void annotationValuesAndPlaceholdersAreApplied() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class)
			.withPropertyValues("budgets.ingest=4s")
			.run((context) -> {
				ComponentView ingest = view(context.getBean(LifecycleManager.class), "ingest");
				assertThat(ingest.phase()).isEqualTo(10);
				assertThat(ingest.tier()).isEqualTo(Tier.STANDARD);
				ComponentView sink = view(context.getBean(LifecycleManager.class), "fallback-sink");
				assertThat(sink.tier()).isEqualTo(Tier.ADVISORY);
			});
	}

	@Test
	void componentHandlesCanBeLookedUpByNameFromPostConstruct() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class)
			.run((context) -> {
				FallbackSink sink = context.getBean(FallbackSink.class);
				assertThat(sink.ownHandle.name()).isEqualTo("fallback-sink");
				assertThat(sink.ingestHandle.name()).isEqualTo("ingest");
				assertThat(sink.ingestHandle.isHealthy()).isTrue();
			});
	}

	@Test
	void aPlainComponentEndsWhenToldToStopOnceItsCriticalSectionsClose() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(ComponentsConfiguration.class)
			.run((context) -> {
				LifecycleManager manager = context.getBean(LifecycleManager.class);
				ComponentHandle.CriticalSection section = manager.handle("web").orElseThrow().critical();
				Thread closer = new Thread(context::close);
				closer.start();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> view(manager, "web").state() == ComponentState.STOPPING);
				assertThat(manager.report()).isEmpty();
				section.close();
				closer.join(TimeUnit.SECONDS.toMillis(10));
				assertThat(manager.report().orElseThrow().component("web").orElseThrow().outcome())
					.isEqualTo(Outcome.COMPLETED);
			});
	}

	@Test
	void aComponentFailingToStartFailsTheApplicationAfterDrainingWhatHadStarted() {
		List<Integer> exits = new CopyOnWriteArrayList<>();
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withBean(LifecycleExit.class, () -> exits::add)
			.withUserConfiguration(BrokenConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasStackTraceContaining("component 'broken' failed to start");
			});
		// Ingest (phase 10) never started, so it is not stopped either.
		assertThat(this.events.list()).containsExactly("start store", "stop store");
		// The failed start is Spring Boot's to report; Lifecycle does not race it with an
		// exit.
		assertThat(exits).isEmpty();
	}

	@Test
	void lazyComponentsAreRegisteredBeforeTheEngineStarts() {
		TestRunners.lifecycle()
			.withBean(TestRunners.Events.class, () -> this.events)
			.withUserConfiguration(LazyConfiguration.class)
			.run((context) -> assertThat(context.getBean(LifecycleManager.class).handle("lazy")).isPresent());
	}

	private static ComponentView view(LifecycleManager manager, String name) {
		return manager.components().stream().filter((c) -> c.name().equals(name)).findFirst().orElseThrow();
	}

	@ManagedComponent(value = "ingest", phase = 10, gracefulShutdown = "${budgets.ingest:2s}")
	static class Ingest implements PassiveComponent {

		private final TestRunners.Events events;

		Ingest(TestRunners.Events events) {
			this.events = events;
		}

		@Override
		public void start(ComponentHandle handle) {
			this.events.add("start ingest");
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.events.add("stop ingest");
		}

	}

	@ManagedComponent(value = "pipeline", phase = 5, gracefulShutdown = "5s")
	static class Pipeline implements ActiveComponent {

		private final TestRunners.Events events;

		Pipeline(TestRunners.Events events) {
			this.events = events;
		}

		@Override
		public void run(ComponentHandle handle) throws Exception {
			this.events.add("run pipeline");
			handle.awaitShutdown();
			this.events.add("stop pipeline");
		}

	}

	@ManagedComponent("store")
	static class Store implements PassiveComponent {

		private final TestRunners.Events events;

		Store(TestRunners.Events events) {
			this.events = events;
		}

		@Override
		public void start(ComponentHandle handle) {
			this.events.add("start store");
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.events.add("stop store");
		}

	}

	/**
	 * A plain component: no threads of its own, only critical sections opened by callers.
	 */
	@ManagedComponent("web")
	static class Web {

	}

	@ManagedComponent(value = "fallback-sink", tier = Tier.ADVISORY, livenessDeadline = "30s")
	static class FallbackSink {

		@Autowired
		private LifecycleManager manager;

		ComponentHandle ownHandle;

		ComponentHandle ingestHandle;

		@PostConstruct
		void lookUpHandles() {
			this.ownHandle = this.manager.handle("fallback-sink").orElseThrow();
			this.ingestHandle = this.manager.handle("ingest").orElseThrow();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ComponentsConfiguration {

		@Bean
		Ingest ingest(TestRunners.Events events) {
			return new Ingest(events);
		}

		@Bean
		Pipeline pipeline(TestRunners.Events events) {
			return new Pipeline(events);
		}

		@Bean
		Store store(TestRunners.Events events) {
			return new Store(events);
		}

		@Bean
		Web web() {
			return new Web();
		}

		@Bean
		@DependsOn("ingest")
		FallbackSink fallbackSink() {
			return new FallbackSink();
		}

	}

	static class Handlers {

		private final TestRunners.Events events;

		private final LifecycleManager manager;

		Handlers(TestRunners.Events events, LifecycleManager manager) {
			this.events = events;
			this.manager = manager;
		}

		@ShutdownHandler(timeout = "5s")
		@Order(2)
		void backup() {
			this.events.add("handler backup" + ingestState());
		}

		@ShutdownHandler(timeout = "5s")
		@Order(1)
		void checkpoint() {
			this.events.add("handler checkpoint" + ingestState());
		}

		@FinalAction
		void first() {
			this.events.add("final first");
		}

		String ingestState() {
			return view(this.manager, "ingest").state() == ComponentState.RUNNING ? " (ingest running)"
					: " (ingest stopped)";
		}

	}

	static class MoreFinalActions {

		private final TestRunners.Events events;

		MoreFinalActions(TestRunners.Events events) {
			this.events = events;
		}

		@FinalAction(name = "second")
		void second() {
			this.events.add("final second");
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HandlersConfiguration {

		@Bean
		Handlers handlers(TestRunners.Events events, LifecycleManager manager) {
			return new Handlers(events, manager);
		}

		@Bean
		@DependsOn("handlers")
		MoreFinalActions moreFinalActions(TestRunners.Events events) {
			return new MoreFinalActions(events);
		}

		@Bean
		@Order(3)
		dev.lifecycle.core.ShutdownTask coreHandler(TestRunners.Events events, Handlers handlers) {
			return () -> events.add("handler core" + handlers.ingestState());
		}

	}

	@ManagedComponent(value = "slow", gracefulShutdown = "10s")
	static class Slow implements PassiveComponent {

		@Override
		public void stop(ComponentHandle handle) throws InterruptedException {
			new CountDownLatch(1).await(200, TimeUnit.MILLISECONDS);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SlowConfiguration {

		@Bean
		Slow slow() {
			return new Slow();
		}

	}

	@ManagedComponent(value = "broken", phase = 1)
	static class Broken implements PassiveComponent {

		@Override
		public void start(ComponentHandle handle) {
			throw new IllegalStateException("no database");
		}

		@Override
		public void stop(ComponentHandle handle) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BrokenConfiguration {

		@Bean
		Store store(TestRunners.Events events) {
			return new Store(events);
		}

		@Bean
		Broken broken() {
			return new Broken();
		}

		@Bean
		Ingest ingest(TestRunners.Events events) {
			return new Ingest(events);
		}

	}

	/** Finite only when configured so: the annotation leaves it infinite. */
	@ManagedComponent("batch")
	static class Batch implements ActiveComponent {

		@Override
		public void run(ComponentHandle handle) {
			handle.workCompleted();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class BatchConfiguration {

		@Bean
		Batch batch() {
			return new Batch();
		}

	}

	@ManagedComponent("lazy")
	static class LazyComponent {

	}

	@Configuration(proxyBeanMethods = false)
	static class LazyConfiguration {

		@Bean
		@Lazy
		LazyComponent lazy() {
			return new LazyComponent();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CodeRegisteredConfiguration {

		@Bean(destroyMethod = "")
		java.util.concurrent.ExecutorService paymentExecutor(LifecycleManager manager) {
			return manager.registerExecutor("payment-executor",
					dev.lifecycle.core.ComponentOptions.defaults().withPhase(3),
					java.util.concurrent.Executors.newFixedThreadPool(1));
		}

	}

}
