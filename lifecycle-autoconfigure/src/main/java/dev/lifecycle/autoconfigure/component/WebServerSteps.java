package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import dev.lifecycle.autoconfigure.RequestsInFlight;
import dev.lifecycle.core.LifecycleManager;
import org.jspecify.annotations.Nullable;

import org.springframework.context.Lifecycle;
import org.springframework.context.SmartLifecycle;

/**
 * The web server's graceful shutdown and stop as closing steps of the sequence, after the
 * observability drain and before the report, so the report says whether in-flight
 * requests finished and the ceiling bounds them. Spring then finds both lifecycles
 * stopped and skips them; if the sequence never reached them, Spring stops the server as
 * usual. A stop that cuts requests still in flight (the graceful budget ran out, or the
 * server's shutdown is {@code immediate}) fails its step, naming them: the report is then
 * not clean.
 */
final class WebServerSteps {

	private WebServerSteps() {
	}

	static void add(LifecycleManager manager, BootLifecycles boot, Duration timeout,
			@Nullable RequestsInFlight requests) {
		SmartLifecycle graceful = boot.gracefulShutdown();
		Lifecycle startStop = boot.startStop();
		if (graceful != null) {
			manager.addClosingStep("web server graceful shutdown", timeout, () -> {
				if (graceful.isRunning()) {
					CountDownLatch drained = new CountDownLatch(1);
					graceful.stop(drained::countDown);
					drained.await();
				}
			});
		}
		if (startStop != null) {
			manager.addClosingStep("web server stop", timeout, () -> {
				if (!startStop.isRunning()) {
					return;
				}
				// Taken before the stop: the stop ends them, and they would then look
				// finished.
				List<String> cut = (requests != null) ? requests.cutByTheStop() : List.of();
				startStop.stop();
				if (!cut.isEmpty()) {
					throw new IllegalStateException("the web server's stop cut " + cut.size()
							+ " request(s) still in flight: " + String.join(", ", cut));
				}
			});
		}
	}

}
