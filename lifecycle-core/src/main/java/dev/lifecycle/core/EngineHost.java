package dev.lifecycle.core;

import java.util.OptionalLong;

/**
 * The manager's {@link LifecycleHost}: each call goes to the part of the engine it
 * concerns.
 */
final class EngineHost implements LifecycleHost {

	private final Traffic traffic;

	private final Triggers triggers;

	private final Termination termination;

	private final ComponentRegistry registry;

	private final EngineStart start;

	EngineHost(Traffic traffic, Triggers triggers, Termination termination, ComponentRegistry registry,
			EngineStart start) {
		this.traffic = traffic;
		this.triggers = triggers;
		this.termination = termination;
		this.registry = registry;
		this.start = start;
	}

	@Override
	public void recordActivity() {
		this.traffic.recordActivity();
	}

	@Override
	public void recordFailedRequest() {
		if (this.triggers.isInitiated()) {
			this.traffic.recordFailure();
		}
	}

	@Override
	public int forceExit() {
		return this.termination.forceExit();
	}

	@Override
	public void recordHalt(String heldBy) {
		this.termination.halted(heldBy);
	}

	@Override
	public OptionalLong ceilingDeadline() {
		return this.triggers.deadline();
	}

	@Override
	public void openToJoin() {
		this.registry.openJoin();
	}

	@Override
	public void startJoined() {
		this.start.startJoined();
	}

}
