package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.Internal;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
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
	}

	@Override
	public void ready(ConfigurableApplicationContext context, Duration timeTaken) {
		stages.put(context, Stage.READY);
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
