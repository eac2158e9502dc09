package dev.lifecycle.autoconfigure.component;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.scheduling.concurrent.ConcurrentTaskExecutor;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * One adopted executor or scheduler bean as the engine drains it, whatever its threads
 * (Spring's executors and schedulers, on virtual threads or not, and plain
 * {@link ExecutorService} beans). At its turn it takes no new work and waits,
 * interrupting nothing, for every task it accepted, within the engine's budget, so that a
 * clean report means no accepted task was abandoned; a scheduled executor drops its
 * triggers not yet due and waits only for the tasks running or due. A later task runs on
 * its caller (a plain {@link ThreadPoolExecutor} through its rejection policy, the JDK's
 * other executors through {@link CallerRunsAfterShutdown}); an executor of the
 * application's own class that is no thread pool rejects it as its class does. Threads
 * still running tasks are named with their stacks when the budget or the ceiling runs
 * out.
 */
final class AdoptedExecutor {

	private final Executor executor;

	private final @Nullable TaskGate gate;

	private AdoptedExecutor(Executor executor, @Nullable TaskGate gate) {
		this.executor = executor;
		this.gate = gate;
	}

	/** Whether a bean is an executor this class can drain. */
	static boolean isExecutor(Object bean) {
		return bean instanceof Executor;
	}

	/**
	 * Prepares an executor bean for adoption: a Spring executor gets a {@link TaskGate}
	 * in front of its own task decorator, when that decorator can be read. Called before
	 * the bean initialises, so a thread pool applies the gate to every task it will ever
	 * run.
	 */
	static AdoptedExecutor prepare(Executor executor, ExecutorDecorators decorators) {
		if (!decorators.readable()) {
			return new AdoptedExecutor(executor, null);
		}
		TaskGate gate = null;
		if (executor instanceof SimpleAsyncTaskExecutor simple) {
			gate = new TaskGate(decorators.current(simple));
			simple.setTaskDecorator(gate);
		}
		else if (executor instanceof ThreadPoolTaskExecutor pool) {
			gate = new TaskGate(decorators.current(pool));
			pool.setTaskDecorator(gate);
		}
		else if (executor instanceof ConcurrentTaskExecutor concurrent) {
			gate = new TaskGate(decorators.current(concurrent));
			concurrent.setTaskDecorator(gate);
		}
		return new AdoptedExecutor(executor, gate);
	}

	/** Stops taking new work and returns once every accepted task has finished. */
	void drain() throws InterruptedException {
		TaskGate gate = this.gate;
		if (gate != null) {
			gate.close();
		}
		if (this.executor instanceof SimpleAsyncTaskScheduler scheduler) {
			// Pauses the triggers (none fires from now on) and waits for a fixed-delay
			// task running now.
			CountDownLatch stopped = new CountDownLatch(1);
			scheduler.stop(stopped::countDown);
			stopped.await();
		}
		if (this.executor instanceof ThreadPoolTaskScheduler scheduler) {
			ScheduledThreadPoolExecutor scheduled = scheduler.getScheduledThreadPoolExecutor();
			// Triggers not yet due are dropped at shutdown rather than fired later.
			scheduled.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
			scheduled.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
			shutDownAndAwait(scheduled);
		}
		else if (this.executor instanceof ThreadPoolTaskExecutor pool) {
			shutDownAndAwait(pool.getThreadPoolExecutor());
		}
		else if (this.executor instanceof ExecutorConfigurationSupport support) {
			support.initiateShutdown();
		}
		else if (this.executor instanceof ExecutorService service) {
			shutDownAndAwait(service);
		}
		if (gate != null && !(this.executor instanceof ThreadPoolTaskExecutor)) {
			// A thread pool's termination says it already; a task its pool rejected while
			// it was still open (a full queue) was counted by the gate but never runs.
			gate.awaitAccepted();
		}
	}

	/**
	 * Shuts a pool down and waits for it; a task that reaches a thread pool after the
	 * shutdown (it passed the gate just before it closed) runs on its caller.
	 */
	private static void shutDownAndAwait(ExecutorService service) throws InterruptedException {
		if (service instanceof ThreadPoolExecutor pool) {
			RejectedExecutionHandler policy = pool.getRejectedExecutionHandler();
			pool.setRejectedExecutionHandler((task, rejecting) -> {
				if (rejecting.isShutdown()) {
					LateTask.run(task);
				}
				else {
					policy.rejectedExecution(task, rejecting);
				}
			});
		}
		if (service instanceof ScheduledThreadPoolExecutor scheduled) {
			// Triggers not yet due are dropped at shutdown rather than waited for.
			scheduled.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
			scheduled.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
		}
		else if (service instanceof ScheduledExecutorService scheduled) {
			dropNotYetDue(scheduled);
			return;
		}
		// Not shutdownNow: a task that is running is allowed to finish within the budget.
		service.shutdown();
		while (!service.awaitTermination(1, TimeUnit.HOURS)) {
			// The engine's budget, not this loop, decides how long the wait may last.
		}
	}

	/**
	 * A scheduled executor that hides its pool (the JDK's single-thread one) offers no
	 * policy to drop its triggers at shutdown: a task submitted now runs once the tasks
	 * running or due before it have finished; then the triggers not yet due are dropped.
	 * On a hidden pool of several threads, a task still running on another thread at that
	 * instant is interrupted.
	 */
	private static void dropNotYetDue(ScheduledExecutorService service) throws InterruptedException {
		Future<?> dueDone = null;
		try {
			dueDone = service.submit(() -> {
			});
		}
		catch (RejectedExecutionException ex) {
			// Already shut down by its owner: only its own termination is left to wait
			// for.
		}
		service.shutdown();
		if (dueDone != null) {
			try {
				dueDone.get();
			}
			catch (ExecutionException | CancellationException ex) {
				// Nothing runs in it; it only marks the moment the earlier tasks were
				// done.
			}
			service.shutdownNow();
		}
		while (!service.awaitTermination(1, TimeUnit.HOURS)) {
			// The engine's budget, not this loop, decides how long the wait may last.
		}
	}

	/** The threads running accepted tasks now, for the diagnostics. */
	Set<Thread> threads() {
		Set<Thread> threads = new LinkedHashSet<>();
		if (this.gate != null) {
			threads.addAll(this.gate.running());
		}
		if (this.executor instanceof ExecutorConfigurationSupport support && threads.isEmpty()) {
			// A scheduler's own pool threads, by the name prefix it gives them.
			String prefix = support.getThreadNamePrefix();
			for (Thread thread : Thread.getAllStackTraces().keySet()) {
				if (thread.getName().startsWith(prefix)) {
					threads.add(thread);
				}
			}
		}
		return threads;
	}

}
