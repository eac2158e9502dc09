package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A budget or ceiling overrun names the thread that is really at work for the component,
 * with its stack: for a plain component, the request thread inside its critical section,
 * never an engine thread that has gone idle; and a component with no thread at work is
 * described as what it is.
 */
class OverrunDiagnosticsTest {

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void releaseTheRequests() {
		this.release.countDown();
	}

	@Test
	void aPlainComponentsBudgetOverrunNamesTheRequestThreadInsideItsCriticalSectionWithItsStack() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofSeconds(20))
			.build();
		ComponentHandle handle = manager.registerPassive("orders",
				ComponentOptions.defaults().withGracefulShutdown(Duration.ofMillis(300)), (h) -> {
				});
		manager.start();
		inCriticalSection(handle, "http-nio-exec-7");

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.component("orders")).map(ComponentReport::outcome).hasValue(Outcome.TIMEOUT);
		assertThat(report.diagnostics())
			.contains(
					"component 'orders' did not stop within its graceful budget of PT0.3S (open critical sections: 1)")
			.contains("thread \"http-nio-exec-7\" WAITING, opened a critical section still open after")
			.contains(getClass().getName() + ".handleTheRequest")
			.doesNotContain("lifecycle-stop");
	}

	@Test
	void theCeilingNamesTheRequestThreadInsideAPlainComponentsCriticalSectionWithItsStack() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofMillis(500))
			.build();
		ComponentHandle handle = manager.registerPassive("orders", ComponentOptions.defaults(), (h) -> {
		});
		manager.start();
		inCriticalSection(handle, "http-nio-exec-8");

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.ceilingFired()).isTrue();
		assertThat(report.diagnostics()).contains("global shutdown timeout of PT0.5S expired")
			.contains("component 'orders' (tier STANDARD, phase 0, told to stop, open critical sections 1)")
			.contains("thread \"http-nio-exec-8\" WAITING, opened a critical section still open after")
			.contains(getClass().getName() + ".handleTheRequest")
			.doesNotContain("lifecycle-stop");
	}

	@Test
	void aComponentWithoutAThreadAtWorkIsDescribedAsWhatItIsNotAsAProcessScope() throws Exception {
		LifecycleManager manager = LifecycleManager.builder("svc")
			.globalShutdownTimeout(Duration.ofMillis(500))
			.build();
		ComponentHandle stuck = manager.registerPassive("orders", ComponentOptions.defaults(), (h) -> {
		});
		manager.registerPassive("taskExecutor", ComponentOptions.defaults().withTier(Tier.INFRASTRUCTURE), (h) -> {
		});
		manager.register("poller", ComponentOptions.defaults().withTier(Tier.INFRASTRUCTURE));
		manager.start();
		inCriticalSection(stuck, "http-nio-exec-9");

		manager.triggerShutdown(ShutdownReason.SIGNAL, "signal");
		ShutdownReport report = manager.awaitTermination();

		assertThat(report.diagnostics()).contains(
				"component 'taskExecutor' (tier INFRASTRUCTURE, phase 0, not yet told to stop, open critical sections 0)"
						+ "\n    no thread at work: it has not been told to stop yet, it names no thread of its own at work "
						+ "and it holds no critical section open")
			.contains(
					"component 'poller' (tier INFRASTRUCTURE, phase 0, not yet told to stop, open critical sections 0)"
							+ "\n    no thread at work: its process scope is not open");
	}

	private void inCriticalSection(ComponentHandle handle, String threadName) throws InterruptedException {
		CountDownLatch inside = new CountDownLatch(1);
		Thread request = new Thread(() -> handleTheRequest(handle, inside), threadName);
		request.setDaemon(true);
		request.start();
		assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
	}

	private void handleTheRequest(ComponentHandle handle, CountDownLatch inside) {
		try (ComponentHandle.CriticalSection section = handle.critical()) {
			inside.countDown();
			this.release.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
