package dev.lifecycle.autoconfigure.component;

import java.time.Duration;

import dev.lifecycle.autoconfigure.process.CeilingBounds;
import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.core.LifecycleManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The one bean that ties a context to the engine: the {@link LifecycleCoordinator} of the
 * context that runs the engine, or the {@link ContextJoin} of a child context that joined
 * it. The lifecycle processor leaves it to Spring and tells it when a bean's start fails.
 */
interface EngineLink {

	/**
	 * A bean's start threw and the refresh is failing: the shutdown is a failed start
	 * naming the bean and the cause; this returns once its report exists.
	 */
	void startFailed(String bean, Throwable cause);

	/**
	 * Blocks the closing thread until the engine's report, bounded by the ceiling and its
	 * slack: a context closes only once the shutdown it began has ended.
	 */
	static void awaitReport(LifecycleManager manager) {
		Log logger = LogFactory.getLog(EngineLink.class);
		// Counted from the trigger, as every bound on the shutdown.
		Duration bound = manager.globalShutdownTimeout().plus(CeilingBounds.REPORT_WAIT);
		try {
			if (manager.awaitTermination(ShutdownExit.reportWait(manager)).isEmpty()) {
				logger.error("Lifecycle: no shutdown report within " + bound + "; closing the context without it");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			logger.warn("Lifecycle: interrupted while waiting for the shutdown sequence; closing the context now");
		}
	}

}
