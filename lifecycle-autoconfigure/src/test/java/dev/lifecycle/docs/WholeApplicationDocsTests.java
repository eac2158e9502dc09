package dev.lifecycle.docs;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The recipes of the whole-application and connection-drain pages, run as an application
 * runs them.
 */
class WholeApplicationDocsTests {

	@Test
	void anExecutorRegisteredInCodeTakesItsOptionsFromPropertiesAndFinishesAcceptedTasks() throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE,
				List.of("lifecycle.components.payments-executor.phase=16"), ExecutorConfiguration.class)) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			assertThat(view(manager, "payments-executor").phase()).isEqualTo(16);
			ExecutorService executor = context.getBean(ExecutorService.class);
			CountDownLatch release = new CountDownLatch(1);
			List<String> done = new CopyOnWriteArrayList<>();
			executor.submit(() -> {
				release.await(10, TimeUnit.SECONDS);
				done.add("accepted task");
				return null;
			});
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			release.countDown();
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(done).containsExactly("accepted task");
			assertThat(report.component("payments-executor").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
		}
	}

	@Test
	void aPlainComponentServesUntilItsPhaseStopsThenRefusesAndTheStoreStopsAfterIt() throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE,
				OrdersController.class, OrderStore.class)) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			OrdersController controller = context.getBean(OrdersController.class);
			OrderStore store = context.getBean(OrderStore.class);
			assertThat(controller.accept(Map.of("id", 1)).getStatusCode().value()).isEqualTo(202);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(report.exitCode()).isZero();
			assertThat(store.stored()).hasSize(1);
			ResponseEntity<?> late = controller.accept(Map.of("id", 2));
			assertThat(late.getStatusCode().value()).isEqualTo(503);
			assertThat(late.getHeaders().getFirst("Retry-After")).isEqualTo("1");
		}
	}

	@Test
	void aReactiveRequestHoldsItsComponentOpenUntilItCompletes() throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE,
				ReactiveOrdersController.class, OrderStore.class)) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ReactiveOrdersController controller = context.getBean(ReactiveOrdersController.class);
			Sinks.One<Map<String, Object>> body = Sinks.one();
			List<ResponseEntity<?>> answers = new CopyOnWriteArrayList<>();
			controller.accept(body.asMono()).subscribe(answers::add);
			assertThat(view(manager, "orders-api").openCriticalSections()).isEqualTo(1);
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> view(manager, "orders-api").state().name().equals("STOPPING"));
			assertThat(context.getBean(OrderStore.class).stopped()).isFalse();
			body.tryEmitValue(Map.of("id", 1));
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(answers).singleElement()
				.satisfies((answer) -> assertThat(answer.getStatusCode().value()).isEqualTo(200));
			assertThat(report.component("orders-api").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(controller.accept(Mono.just(Map.of("id", 2))).block().getStatusCode().value()).isEqualTo(503);
		}
	}

	@Test
	void aFiniteJobEndsTheApplicationWithReasonCompletedAndExitCodeZero() throws Exception {
		List<Path> imported = new CopyOnWriteArrayList<>();
		try (ConfigurableApplicationContext context = new org.springframework.boot.builder.SpringApplicationBuilder()
			.sources(DocsApplications.AutoConfigured.class, NightlyImport.class)
			.initializers((ctx) -> {
				ctx.getBeanFactory()
					.registerSingleton("inbox", (Inbox) () -> List.of(Path.of("a.csv"), Path.of("b.csv")));
				ctx.getBeanFactory().registerSingleton("importer", (Importer) imported::add);
			})
			.web(WebApplicationType.NONE)
			.registerShutdownHook(false)
			.properties("spring.application.name=orders", "lifecycle.signals.trap=false",
					"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
					"lifecycle.halt-after-ceiling=false", "lifecycle.close-context=false")
			.run()) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(30)).orElseThrow();
			assertThat(report.trigger().reason()).isEqualTo(ShutdownReason.COMPLETED);
			assertThat(report.exitCode()).isZero();
			assertThat(imported).containsExactly(Path.of("a.csv"), Path.of("b.csv"));
			// Spring Boot's task executor is adopted and running, yet does not hold the
			// exit back;
			// the completed shutdown stops it like any other component.
			assertThat(report.component("applicationTaskExecutor").orElseThrow().outcome())
				.isEqualTo(Outcome.COMPLETED);
		}
	}

	private static ComponentView view(LifecycleManager manager, String name) {
		return manager.components().stream().filter((c) -> c.name().equals(name)).findFirst().orElseThrow();
	}

}
