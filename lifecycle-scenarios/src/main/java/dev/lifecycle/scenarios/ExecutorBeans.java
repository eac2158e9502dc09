package dev.lifecycle.scenarios;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Executors of the kinds applications declare as beans: one of the application's own
 * package-private class, injected by that class; a scheduled executor with a trigger due
 * in ten minutes; and the JDK's common pool. {@code scenario.own-executor=false} leaves
 * out the first.
 */
@Configuration(proxyBeanMethods = false)
class ExecutorBeans {

	private static final Logger logger = LoggerFactory.getLogger(ExecutorBeans.class);

	@Bean
	@ConditionalOnBooleanProperty(name = "scenario.own-executor", matchIfMissing = true)
	CountingExecutor countingExecutor() {
		return new CountingExecutor();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "scenario.own-executor", matchIfMissing = true)
	CountingUser countingUser(CountingExecutor executor) {
		executor.execute(() -> logger.info("scenario: own executor ran a task"));
		return new CountingUser(executor);
	}

	@Bean
	ScheduledExecutorService reminders() {
		ScheduledExecutorService reminders = Executors.newScheduledThreadPool(1);
		reminders.schedule(() -> logger.info("scenario: reminder due in ten minutes ran"), 10, TimeUnit.MINUTES);
		return reminders;
	}

	@Bean
	ExecutorService commonPool() {
		return ForkJoinPool.commonPool();
	}

	/** An executor service of the application's own, package-private class. */
	static final class CountingExecutor extends AbstractExecutorService {

		private final ExecutorService delegate = Executors.newFixedThreadPool(1);

		@Override
		public void execute(Runnable command) {
			this.delegate.execute(command);
		}

		@Override
		public void shutdown() {
			this.delegate.shutdown();
		}

		@Override
		public List<Runnable> shutdownNow() {
			return this.delegate.shutdownNow();
		}

		@Override
		public boolean isShutdown() {
			return this.delegate.isShutdown();
		}

		@Override
		public boolean isTerminated() {
			return this.delegate.isTerminated();
		}

		@Override
		public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
			return this.delegate.awaitTermination(timeout, unit);
		}

	}

	/** Injects the executor by its own class, as code in its package does. */
	static final class CountingUser {

		final CountingExecutor executor;

		CountingUser(CountingExecutor executor) {
			this.executor = executor;
		}

	}

}
