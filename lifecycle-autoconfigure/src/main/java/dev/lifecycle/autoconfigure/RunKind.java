package dev.lifecycle.autoconfigure;

import java.util.function.Function;

import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;

import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.SpringProperties;

/**
 * Whether this JVM lives the service's life or only prepares one (a JDK AOT cache
 * training run, Spring AOT processing, a CRaC checkpoint). A preparing run ends on
 * purpose before it serves, so it writes no run marker or report and traps no signal: the
 * real start finds nothing left behind. Decided from {@link SpringProperties}, as Spring
 * decides, because Spring acts on these switches before any bean could ask.
 */
@Internal
public enum RunKind {

	/** The service's life: records from the manager's construction, signals trapped. */
	SERVICE("", true, false, true),

	/**
	 * {@code spring.context.exit=onRefresh}: Spring halts the JVM as the context
	 * refreshes, before any lifecycle bean starts, as in a training run for the JDK AOT
	 * cache.
	 */
	TRAINING(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME + "=" + DefaultLifecycleProcessor.ON_REFRESH_VALUE, false,
			false, false),

	/**
	 * Spring AOT processing at build time: the context is only prepared, never started.
	 */
	AOT_PROCESSING(AbstractAotProcessor.AOT_PROCESSING + "=true", false, false, false),

	/**
	 * {@code spring.context.checkpoint=onRefresh}: the JVM is checkpointed as the context
	 * refreshes and the service's life is the restored process's. Records begin at the
	 * engine's start, which only the restored process reaches; signals are trapped for
	 * it.
	 */
	CHECKPOINT(DefaultLifecycleProcessor.CHECKPOINT_PROPERTY_NAME + "=" + DefaultLifecycleProcessor.ON_REFRESH_VALUE,
			true, true, true);

	private final String setting;

	private final boolean keepsRecords;

	private final boolean recordsFromStart;

	private final boolean trapsSignals;

	RunKind(String setting, boolean keepsRecords, boolean recordsFromStart, boolean trapsSignals) {
		this.setting = setting;
		this.keepsRecords = keepsRecords;
		this.recordsFromStart = recordsFromStart;
		this.trapsSignals = trapsSignals;
	}

	/** This JVM's kind of run. */
	public static RunKind current() {
		return of(SpringProperties::getProperty);
	}

	/** The kind of run the given Spring properties describe. */
	static RunKind of(Function<String, @Nullable String> properties) {
		if (Boolean.parseBoolean(properties.apply(AbstractAotProcessor.AOT_PROCESSING))) {
			return AOT_PROCESSING;
		}
		if (DefaultLifecycleProcessor.ON_REFRESH_VALUE
			.equalsIgnoreCase(properties.apply(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME))) {
			return TRAINING;
		}
		if (DefaultLifecycleProcessor.ON_REFRESH_VALUE
			.equalsIgnoreCase(properties.apply(DefaultLifecycleProcessor.CHECKPOINT_PROPERTY_NAME))) {
			return CHECKPOINT;
		}
		return SERVICE;
	}

	/**
	 * The setting that makes this run what it is, for the log; empty for the service's
	 * life.
	 */
	String setting() {
		return this.setting;
	}

	/** Whether a run marker and shutdown reports are kept at all. */
	boolean keepsRecords() {
		return this.keepsRecords;
	}

	/**
	 * Whether the records begin at the engine's start rather than when the manager is
	 * built.
	 */
	boolean recordsFromStart() {
		return this.recordsFromStart;
	}

	/** Whether the {@link dev.lifecycle.core.ShutdownSignal}s are Lifecycle's. */
	public boolean trapsSignals() {
		return this.trapsSignals;
	}

}
