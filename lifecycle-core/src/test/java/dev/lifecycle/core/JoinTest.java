package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A part of the application that joins the engine after its start (a child application
 * context) is drained by the same shutdown, in one order with the rest.
 */
class JoinTest {

	private final List<String> events = new CopyOnWriteArrayList<>();

	@Test
	void componentsAndHandlersThatJoinAfterTheStartStartAtOnceAndDrainInOnePhaseOrderWithTheOthers()
			throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("joined")
			.globalShutdownTimeout(Duration.ofSeconds(20))
			.build();
		manager.registerPassive("store", ComponentOptions.defaults().withPhase(5), recording("store"));
		manager.start();
		LifecycleHost host = LifecycleHost.of(manager);

		host.openToJoin();
		manager.registerPassive("api", ComponentOptions.defaults().withPhase(20), recording("api"));
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> this.events.add("checkpoint"));
		manager.addClosingStep("server stop", Duration.ofSeconds(5), () -> this.events.add("server stop"));
		host.startJoined();

		assertThat(this.events).containsExactly("store started", "api started");
		assertThatIllegalStateException()
			.isThrownBy(() -> manager.registerPassive("late", ComponentOptions.defaults(), recording("late")))
			.withMessageContaining("has already started");
		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(this.events).containsExactly("store started", "api started", "checkpoint", "api stopped",
				"store stopped", "server stop");
	}

	@Test
	void nothingJoinsOnceTheShutdownHasBegunAndWhatJoinedBeforeItNeverStarts() throws InterruptedException {
		LifecycleManager manager = LifecycleManager.builder("joined").build();
		manager.start();
		LifecycleHost host = LifecycleHost.of(manager);
		host.openToJoin();
		manager.registerPassive("api", ComponentOptions.defaults(), recording("api"));

		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
		assertThatIllegalStateException()
			.isThrownBy(() -> manager.registerPassive("late", ComponentOptions.defaults(), recording("late")))
			.withMessageContaining("shutdown has begun");
		host.startJoined();

		assertThat(manager.awaitTermination().exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(this.events).isEmpty();
	}

	private PassiveComponent recording(String name) {
		return new PassiveComponent() {

			@Override
			public void start(ComponentHandle handle) {
				JoinTest.this.events.add(name + " started");
			}

			@Override
			public void stop(ComponentHandle handle) {
				JoinTest.this.events.add(name + " stopped");
			}

		};
	}

}
