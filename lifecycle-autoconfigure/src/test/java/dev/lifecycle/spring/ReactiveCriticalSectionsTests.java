package dev.lifecycle.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class ReactiveCriticalSectionsTests {

	private final LifecycleManager manager = LifecycleManager.builder("reactive")
		.globalShutdownTimeout(Duration.ofSeconds(20))
		.build();

	private final ComponentHandle handle = this.manager.register("orders",
			ComponentOptions.defaults().withGracefulShutdown(Duration.ofSeconds(10)));

	private ComponentView view() {
		return this.manager.components().get(0);
	}

	@Test
	void theDrainWaitsForReactiveWorkInFlightAndTheSectionClosesWhenItCompletes() throws Exception {
		this.manager.start();
		this.handle.onShutdown(() -> this.handle.processScope().close());
		Sinks.One<String> saved = Sinks.one();
		AtomicReference<String> result = new AtomicReference<>();
		Mono<String> work = ReactiveCriticalSections.critical(this.handle, saved.asMono());
		assertThat(view().openCriticalSections()).as("nothing opens before subscription").isZero();
		work.subscribe(result::set);
		assertThat(view().openCriticalSections()).isEqualTo(1);

		this.manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.handle.isShuttingDown());
		assertThat(this.manager.report()).as("the drain waits for the saved order").isEmpty();
		saved.tryEmitValue("order-1");

		ShutdownReport report = this.manager.awaitTermination(Duration.ofSeconds(10)).orElseThrow();
		assertThat(result).hasValue("order-1");
		assertThat(view().openCriticalSections()).isZero();
		assertThat(report.component("orders").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
	}

	@Test
	void aCancelledOrFailedStreamClosesItsSectionExactlyOnce() {
		Disposable cancelled = ReactiveCriticalSections.critical(this.handle, Flux.<Integer>never()).subscribe();
		assertThat(view().openCriticalSections()).isEqualTo(1);
		cancelled.dispose();
		assertThat(view().openCriticalSections()).isZero();

		List<Integer> seen = ReactiveCriticalSections
			.critical(this.handle, Flux.just(1, 2).concatWith(Flux.error(new IllegalStateException("boom"))))
			.onErrorResume((ex) -> Flux.empty())
			.collectList()
			.block(Duration.ofSeconds(5));
		assertThat(seen).containsExactly(1, 2);
		assertThat(view().openCriticalSections()).isZero();
	}

}
