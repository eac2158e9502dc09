package dev.lifecycle.autoconfigure.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.core.ExitCodes;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownTrigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a signal does to the owner of the application's end ({@link ShutdownExit}), driven
 * without real signals (the process-level tests send real ones).
 */
@ExtendWith(OutputCaptureExtension.class)
class SignalTrapTests {

	private final List<Integer> halts = new CopyOnWriteArrayList<>();

	private final List<Integer> exits = new CopyOnWriteArrayList<>();

	private final GenericApplicationContext context = new GenericApplicationContext();

	private LifecycleManager manager;

	private ShutdownExit trap;

	@BeforeEach
	void startEngine() {
		this.context.refresh();
		this.manager = LifecycleManager.builder("orders").build();
		this.trap = new ShutdownExit(this.context, this.exits::add, true, this.manager, this.halts::add,
				new BeanDestructionTracker(), null);
		this.manager.addListener(this.trap);
		this.manager.start();
		this.trap.release();
	}

	/** A manager whose drain is still under way when a test's second signal arrives. */
	private void drainStillUnderWayAtTheSecondSignal() {
		this.manager = LifecycleManager.builder("orders").drainDelay(Duration.ofSeconds(5)).build();
		this.trap = new ShutdownExit(this.context, this.exits::add, false, this.manager, this.halts::add,
				new BeanDestructionTracker(), null);
		this.manager.addListener(this.trap);
		this.manager.start();
		this.trap.release();
	}

	@AfterEach
	void stopEngine() {
		this.manager.triggerShutdown(ShutdownReason.SIGNAL, "test-cleanup");
		this.context.close();
	}

	@Test
	void firstSignalStartsTheShutdownThenClosesTheContextAndExitsWithTheReportCode() {
		this.trap.handle("SIGTERM");
		assertThat(this.manager.trigger()).contains(new ShutdownTrigger(ShutdownReason.SIGNAL, "signal", ""));
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.exits.isEmpty());
		assertThat(this.context.isClosed()).isTrue();
		assertThat(this.exits).containsExactly(ExitCodes.CLEAN);
		assertThat(this.halts).isEmpty();
	}

	@Test
	void secondSignalHaltsAtOnceWithCode128() {
		drainStillUnderWayAtTheSecondSignal();

		this.trap.handle("SIGTERM");
		this.trap.handle("SIGINT");

		assertThat(this.manager.report()).isEmpty();
		assertThat(this.halts).containsExactly(ExitCodes.FORCED);
	}

	@Test
	void aSignalAfterThePreStopFileIsTheFirstSignal() {
		drainStillUnderWayAtTheSecondSignal();
		this.manager.triggerShutdown(ShutdownReason.PRESTOP, "prestop");
		this.trap.handle("SIGTERM");
		assertThat(this.halts).isEmpty();
		assertThat(this.manager.trigger().orElseThrow().reason()).isEqualTo(ShutdownReason.PRESTOP);
		this.trap.handle("SIGTERM");
		assertThat(this.halts).containsExactly(ExitCodes.FORCED);
	}

	@Test
	void aSigtermAfterThePreStopFileSaysTheShutdownIsUnderWayRatherThanStartingOne(CapturedOutput output) {
		this.manager.triggerShutdown(ShutdownReason.PRESTOP, "prestop");
		this.trap.handle("SIGTERM");
		assertThat(output).contains("Lifecycle: received SIGTERM; the shutdown is already under way (reason=prestop")
			.doesNotContain("starting the coordinated shutdown");
	}

	@Test
	void sighupStartsTheShutdownLikeSigterm() {
		this.trap.handle("SIGHUP");
		assertThat(this.manager.trigger().orElseThrow().reason()).isEqualTo(ShutdownReason.SIGNAL);
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.exits.isEmpty());
		assertThat(this.exits).containsExactly(ExitCodes.CLEAN);
	}

	@Test
	void aSignalAfterTheReportChangesNothing(CapturedOutput output) {
		this.trap.handle("SIGTERM");
		await().atMost(Duration.ofSeconds(10)).until(() -> this.manager.report().isPresent());
		this.trap.handle("SIGTERM");
		assertThat(this.halts).isEmpty();
		assertThat(output).contains("Lifecycle: received SIGTERM after the shutdown completed");
	}

}
