package dev.lifecycle.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;

import dev.lifecycle.core.component.Component;
import dev.lifecycle.core.sequence.Listeners;
import dev.lifecycle.core.sequence.ShutdownSequence;

/**
 * What is registered before the start: components, shutdown handlers, final actions,
 * closing and last steps, and late listeners. Names stay unique and registration after
 * the start is refused, so what the start launched is what a shutdown later drains; the
 * sequence walks a frozen copy. A join ({@link LifecycleHost#openToJoin()}) opens
 * registration again after the start until its components are started, and never once the
 * sequence has taken its copy, so no component the sequence does not know of runs.
 */
final class ComponentRegistry {

	/** Guards registration and start; never held while anything blocks. */
	private final ReentrantLock lock = new ReentrantLock();

	private final BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver;

	private final Listeners listeners;

	private final Map<String, Component> byName = new LinkedHashMap<>();

	private final List<ShutdownSequence.NamedHandler> handlers = new ArrayList<>();

	private final List<ShutdownSequence.NamedAction> finalActions = new ArrayList<>();

	private final List<ShutdownSequence.NamedHandler> closingSteps = new ArrayList<>();

	private final List<ShutdownSequence.NamedHandler> lastSteps = new ArrayList<>();

	private volatile List<Component> components = List.of();

	private volatile boolean started;

	/** Joins open after the start; guarded by {@link #lock}. */
	private int joins;

	/**
	 * Components registered after the start, not yet started; guarded by {@link #lock}.
	 */
	private final List<Component> joined = new ArrayList<>();

	/** Whether the sequence has taken its copy; guarded by {@link #lock}. */
	private boolean frozen;

	ComponentRegistry(BiFunction<String, ComponentOptions, ComponentOptions> optionsResolver, Listeners listeners) {
		this.optionsResolver = optionsResolver;
		this.listeners = listeners;
	}

	/**
	 * Resolves and validates the component's options, then registers what the factory
	 * makes of them.
	 * @throws IllegalArgumentException for a blank or duplicate name or an invalid option
	 * combination
	 */
	Component add(String name, ComponentOptions declared, Factory factory) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Component name must not be blank");
		}
		Objects.requireNonNull(declared, "options");
		ComponentOptions options = Objects.requireNonNull(this.optionsResolver.apply(name, declared),
				() -> "options resolved for component '" + name + "'");
		options.validate(name);
		this.lock.lock();
		try {
			checkNotStarted("register component '" + name + "'");
			if (this.byName.containsKey(name)) {
				throw new IllegalArgumentException(
						"Component '" + name + "': name is already registered; " + "component names must be unique");
			}
			Component component = factory.create(options, this.byName.size());
			if (this.started) {
				this.joined.add(component);
			}
			this.byName.put(name, component);
			this.components = List.copyOf(this.byName.values());
			this.listeners.componentRegistered(component);
			return component;
		}
		finally {
			this.lock.unlock();
		}
	}

	void addHandler(String name, Duration timeout, ShutdownTask handler) {
		OptionRules.positive(null, "shutdown handler '" + name + "' timeout", timeout);
		add("add shutdown handler '" + name + "'", this.handlers,
				new ShutdownSequence.NamedHandler(name, timeout, handler));
	}

	void addFinalAction(String name, Runnable action) {
		add("add final action '" + name + "'", this.finalActions, new ShutdownSequence.NamedAction(name, action));
	}

	void addClosingStep(String name, Duration timeout, ShutdownTask step) {
		OptionRules.positive(null, "closing step '" + name + "' timeout", timeout);
		add("add closing step '" + name + "'", this.closingSteps,
				new ShutdownSequence.NamedHandler(name, timeout, step));
	}

	void addLastStep(String name, Duration timeout, ShutdownTask step) {
		OptionRules.positive(null, "last step '" + name + "' timeout", timeout);
		add("add last step '" + name + "'", this.lastSteps, new ShutdownSequence.NamedHandler(name, timeout, step));
	}

	private <T> void add(String what, List<T> list, T step) {
		this.lock.lock();
		try {
			checkNotStarted(what);
			list.add(step);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Adds a listener that first hears of every component registered so far. */
	void addListener(LifecycleListener listener) {
		this.lock.lock();
		try {
			this.listeners.addLate(listener, this.components);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Closes registration.
	 * @return every component in start order: ascending phase, registration order within
	 * a phase
	 * @throws IllegalStateException if already started
	 */
	List<Component> closeForStart() {
		List<Component> ordered;
		this.lock.lock();
		try {
			checkNotStarted("start");
			this.started = true;
			ordered = new ArrayList<>(this.byName.values());
		}
		finally {
			this.lock.unlock();
		}
		ordered.sort(Comparator.comparingInt(Component::phase).thenComparingInt(Component::registrationIndex));
		return ordered;
	}

	/**
	 * Opens registration after the start for one more join; before the start it is open
	 * anyway.
	 */
	void openJoin() {
		this.lock.lock();
		try {
			this.joins++;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Closes one join; registration stays open while another is.
	 * @return the components registered after the start and not handed out yet, in start
	 * order
	 */
	List<Component> closeJoin() {
		List<Component> ordered;
		this.lock.lock();
		try {
			this.joins = Math.max(0, this.joins - 1);
			ordered = new ArrayList<>(this.joined);
			this.joined.clear();
		}
		finally {
			this.lock.unlock();
		}
		ordered.sort(Comparator.comparingInt(Component::phase).thenComparingInt(Component::registrationIndex));
		return ordered;
	}

	/**
	 * Everything registered, as the sequence will run it; nothing joins after this.
	 */
	ShutdownSequence.Steps freeze() {
		this.lock.lock();
		try {
			this.frozen = true;
			return new ShutdownSequence.Steps(this.components, List.copyOf(this.handlers),
					List.copyOf(this.finalActions), List.copyOf(this.closingSteps), List.copyOf(this.lastSteps));
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Every registered component, in registration order. */
	List<Component> components() {
		return this.components;
	}

	Optional<Component> find(String name) {
		for (Component component : this.components) {
			if (component.name().equals(name)) {
				return Optional.of(component);
			}
		}
		return Optional.empty();
	}

	private void checkNotStarted(String what) {
		if (this.started && this.joins == 0) {
			throw new IllegalStateException("Cannot " + what + ": the lifecycle manager has already started");
		}
		if (this.started && this.frozen) {
			throw new IllegalStateException("Cannot " + what + ": the lifecycle manager's shutdown has begun");
		}
	}

	/** Makes the component once its options are resolved and its index known. */
	@FunctionalInterface
	interface Factory {

		Component create(ComponentOptions options, int registrationIndex);

	}

}
