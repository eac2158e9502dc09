package dev.lifecycle.core;

import dev.lifecycle.core.component.EngineThreads;

/**
 * Starts the one shutdown sequence for the winning trigger and hands its report to the
 * {@link Termination}. The sequence runs over a copy of what is registered at that
 * instant, so nothing it walks can change under it.
 */
final class SequenceLauncher {

	private final EngineSettings settings;

	private final ComponentRegistry registry;

	private final EngineThreads threads;

	private final Listeners listeners;

	private final Traffic traffic;

	private final Termination termination;

	SequenceLauncher(EngineSettings settings, ComponentRegistry registry, EngineThreads threads, Listeners listeners,
			Traffic traffic, Termination termination) {
		this.settings = settings;
		this.registry = registry;
		this.threads = threads;
		this.listeners = listeners;
		this.traffic = traffic;
		this.termination = termination;
	}

	void launch(ShutdownTrigger trigger, long initiatedAt) {
		new ShutdownSequence(this.registry.freeze(), this.settings.globalShutdownTimeout(),
				this.settings.drain(this.traffic::activity), this.threads, this.listeners, trigger, initiatedAt,
				this.traffic::failed, this.settings.incompleteExitCode(), this.termination::finish)
			.start();
	}

}
