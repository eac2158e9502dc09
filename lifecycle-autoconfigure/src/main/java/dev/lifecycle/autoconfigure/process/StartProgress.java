package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.TriggerSource;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;

/**
 * How far {@code SpringApplication.run} got with a context: refreshing, refreshed (its
 * runners run), or ready once every {@code ApplicationReadyEvent} listener returned. It
 * runs after Spring Boot's own listener that publishes the events, so a listener that
 * throws leaves the stage where it was: a context closed before it is ready closed
 * because its start failed. Unknown for a context that no {@code SpringApplication} runs
 * (a test's context runner, a plain context).
 */
@Internal
public final class StartProgress implements SpringApplicationRunListener, Ordered {

	/** The thread on which Spring Boot DevTools runs and restarts the application. */
	private static final String DEVTOOLS_MAIN = "restartedMain";

	private static final Map<ApplicationContext, Stage> stages = Collections.synchronizedMap(new WeakHashMap<>());

	/** Made by Spring Boot for each run. */
	StartProgress(SpringApplication application, String[] args) {
	}

	@Override
	public void contextPrepared(ConfigurableApplicationContext context) {
		stages.put(context, Stage.REFRESHING);
	}

	@Override
	public void started(ConfigurableApplicationContext context, Duration timeTaken) {
		stages.put(context, Stage.REFRESHED);
		if (!LifecycleSwitch.isOff(context.getEnvironment())) {
			context.getBeanProvider(ShutdownExit.class).ifAvailable(ShutdownExit::stopTheRunIfEnding);
		}
	}

	@Override
	public void ready(ConfigurableApplicationContext context, Duration timeTaken) {
		stages.put(context, Stage.READY);
	}

	/**
	 * The run failed: once Spring Boot has reported it and the run's thread has ended,
	 * the process must end with 1, even if threads the failed beans started would keep it
	 * alive (see {@link ProcessExit#afterFailedRun}). Only where Lifecycle owns the
	 * process's signals, so never under Spring's test framework.
	 */
	@Override
	public void failed(@Nullable ConfigurableApplicationContext context, Throwable exception) {
		if (context == null) {
			return;
		}
		if (!LifecycleSwitch.isOff(context.getEnvironment())) {
			childFailed(context, exception);
		}
		// DevTools runs the application on its own thread and keeps the JVM for the next
		// restart: a failed start there is a developer's to fix, not the process's end.
		if (EarlySignalTrap.wanted(context.getEnvironment())
				&& !Thread.currentThread().getName().equals(DEVTOOLS_MAIN)) {
			ProcessExit.afterFailedRun(Thread.currentThread(), ceiling(context));
		}
	}

	/**
	 * A child context whose parent runs the engine failed to start, maybe before it
	 * joined the engine: the application's start failed. The failed run owns the process,
	 * as it does when the context that runs the engine fails.
	 */
	private static void childFailed(ConfigurableApplicationContext context, Throwable exception) {
		ApplicationContext parent = context.getParent();
		LifecycleManager manager = (parent != null) ? parent.getBeanProvider(LifecycleManager.class).getIfAvailable()
				: null;
		if (manager == null || manager.isShutdownInitiated()) {
			return;
		}
		ShutdownExit exit = parent.getBeanProvider(ShutdownExit.class).getIfAvailable();
		if (exit != null) {
			exit.contextClosing();
		}
		String source = (of(context) == Stage.REFRESHED) ? TriggerSource.APPLICATION_RUN.label()
				: TriggerSource.REFRESH.label();
		if (manager.triggerShutdown(ShutdownReason.START_FAILED, source,
				"a child application context failed to start: " + exception)) {
			try {
				manager.awaitTermination(ShutdownExit.reportWait(manager));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/** The global ceiling, or its default when the setting itself failed the start. */
	private static Duration ceiling(ConfigurableApplicationContext context) {
		Duration ceiling = new LifecycleManagerProperties().getGlobalShutdownTimeout();
		try {
			return Binder.get(context.getEnvironment())
				.bind("lifecycle.global-shutdown-timeout", Duration.class)
				.orElse(ceiling);
		}
		catch (RuntimeException ex) {
			return ceiling;
		}
	}

	/** After Spring Boot's event-publishing listener (order 0). */
	@Override
	public int getOrder() {
		return 1;
	}

	/**
	 * How far the run of this context got, or {@code null} when no
	 * {@code SpringApplication} runs it.
	 */
	public static @Nullable Stage of(ApplicationContext context) {
		return stages.get(context);
	}

	/** A stage of {@code SpringApplication.run}. */
	public enum Stage {

		/** The context is being refreshed. */
		REFRESHING,

		/** The refresh finished; the runners and the ready listeners come next. */
		REFRESHED,

		/** Every runner and every ready listener returned. */
		READY

	}

}
