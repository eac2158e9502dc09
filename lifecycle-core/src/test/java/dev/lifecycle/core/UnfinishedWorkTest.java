package dev.lifecycle.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Work cut short and left for a later run: the exit code is incomplete's, not 0, and the
 * report names it, whether the component said so or its budget ran out.
 */
class UnfinishedWorkTest {

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("svc").globalShutdownTimeout(Duration.ofSeconds(20));
	}

	@Test
	void workAComponentLeavesUnfinishedMakesTheExitCodeIncompleteAndIsReported() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("jobs", ComponentOptions.defaults(),
				(handle) -> handle.unfinishedWork(List.of("job 'import' execution 7: STOPPED")));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("jobs").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(report.clean()).isFalse();
		assertThat(report.unfinishedWork())
			.containsExactly(new UnfinishedWork("jobs", "job 'import' execution 7: STOPPED"));
	}

	@Test
	void nothingLeftUnfinishedIsClean() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("jobs", ComponentOptions.defaults(), (handle) -> {
			handle.unfinishedWork(List.of("job 'import' execution 7: STARTED (still running)"));
			handle.unfinishedWork(List.of());
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.clean()).isTrue();
		assertThat(report.unfinishedWork()).isEmpty();
	}

	@Test
	void aStandardComponentCutAtItsBudgetExitsIncompleteWithWhatItSaidStillRan() throws InterruptedException {
		CountDownLatch never = new CountDownLatch(1);
		LifecycleManager manager = builder().build();
		manager.registerPassive("jms-listener",
				ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(200)), (handle) -> never.await());
		manager.registerPassive("jobs", ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(200)),
				(handle) -> {
					handle.unfinishedWork(List.of("job 'import' execution 7: STARTED (still running)"));
					never.await();
				});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();
		never.countDown();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.INCOMPLETE);
		assertThat(report.clean()).isFalse();
		assertThat(report.unfinishedWork()).containsExactlyInAnyOrder(
				new UnfinishedWork("jms-listener", "cut at its budget"),
				new UnfinishedWork("jobs", "job 'import' execution 7: STARTED (still running)"));
	}

	@Test
	void anObservabilityComponentsOverrunLeavesNoWorkAndKeepsExitCodeZero() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.register("metrics-server",
				ComponentOptions.defaults().withTier(Tier.OBSERVABILITY).withGracefulShutdown(Duration.ofMillis(100)));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("metrics-server").orElseThrow().outcome()).isEqualTo(Outcome.TIMEOUT);
		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.unfinishedWork()).isEmpty();
	}

	@Test
	void aFailureOutranksUnfinishedWork() throws InterruptedException {
		LifecycleManager manager = builder().build();
		manager.registerPassive("jobs", ComponentOptions.defaults(), (handle) -> {
			handle.unfinishedWork(List.of("job 'import' execution 7: FAILED"));
			throw new IllegalStateException("job failed");
		});
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.FAILURE);
		assertThat(report.unfinishedWork())
			.containsExactly(new UnfinishedWork("jobs", "job 'import' execution 7: FAILED"));
	}

	@Test
	void theServiceChoosesTheCodeOfUnfinishedWorkAndTheReportStillSaysNotClean() throws InterruptedException {
		LifecycleManager manager = builder().incompleteExitCode(0).build();
		manager.registerPassive("jobs", ComponentOptions.defaults(),
				(handle) -> handle.unfinishedWork(List.of("job 'import' execution 7: STOPPED")));
		manager.start();

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.exitCode()).isEqualTo(ExitCodes.CLEAN);
		assertThat(report.clean()).isFalse();
		assertThat(report.unfinishedWork())
			.containsExactly(new UnfinishedWork("jobs", "job 'import' execution 7: STOPPED"));
	}

	@Test
	void theDefaultCodeOfUnfinishedWorkIsNoOtherCodesAndEveryDeclaredCodeHasOneMeaning() {
		assertThat(ExitCodes.INCOMPLETE).isEqualTo(75);
		assertThat(ExitCodes.declared()).extracting(ExitCodes.Code::code).doesNotHaveDuplicates();
		assertThat(ExitCodes.declared()).extracting(ExitCodes.Code::name).doesNotHaveDuplicates();
		assertThat(ExitCodes.severity(ExitCodes.CEILING)).isGreaterThan(ExitCodes.severity(ExitCodes.FORCED));
		assertThat(ExitCodes.severity(ExitCodes.FORCED)).isGreaterThan(ExitCodes.severity(ExitCodes.FAILURE));
		assertThat(ExitCodes.severity(ExitCodes.FAILURE)).isGreaterThan(ExitCodes.severity(ExitCodes.INCOMPLETE));
		assertThat(ExitCodes.severity(ExitCodes.INCOMPLETE)).isGreaterThan(ExitCodes.severity(ExitCodes.CLEAN));
		assertThat(ExitCodes.severity(42)).isEqualTo(ExitCodes.severity(ExitCodes.INCOMPLETE));
	}

}
