package dev.lifecycle.autoconfigure;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.Internal;

/**
 * What the Spring layer knows about each component beyond the engine's view: where each
 * of its effective options came from, whether it is an adopted Spring {@code Lifecycle}
 * bean, and which Lifecycle beans were left to Spring on purpose. Written while the
 * context starts, read by the endpoint and by the check of {@code lifecycle.components}
 * keys.
 */
@Internal
public final class ComponentLedger {

	private final Map<String, Entry> entries = new ConcurrentHashMap<>();

	private final Set<String> leftToSpring = ConcurrentHashMap.newKeySet();

	public void record(String name, ComponentOverrides.Resolved resolved, boolean adopted) {
		this.entries.put(name, new Entry(resolved.options(), resolved.origins(), adopted));
	}

	/**
	 * The engine's options resolver: options of a component that the Spring layer has not
	 * resolved itself (one registered from code) get their {@code lifecycle.components}
	 * overrides here; the others already have them.
	 */
	ComponentOptions resolve(String name, ComponentOptions declared,
			Map<String, LifecycleManagerProperties.Component> overrides) {
		if (this.entries.containsKey(name)) {
			return declared;
		}
		ComponentOverrides.Resolved resolved = ComponentOverrides.resolveCode(name, declared, overrides);
		record(name, resolved, false);
		return resolved.options();
	}

	/**
	 * A Lifecycle bean that is not adopted because its {@code adopt} property is false.
	 */
	public void leftToSpring(String beanName) {
		this.leftToSpring.add(beanName);
	}

	public Optional<Entry> get(String name) {
		return Optional.ofNullable(this.entries.get(name));
	}

	/**
	 * Names that a {@code lifecycle.components.<name>} entry may use besides registered
	 * components.
	 */
	public Set<String> beansLeftToSpring() {
		return Set.copyOf(this.leftToSpring);
	}

	/**
	 * @param options the effective options
	 * @param origins per option, where its value came from
	 * @param adopted whether the component is an adopted Spring Lifecycle bean
	 */
	public record Entry(ComponentOptions options, Map<String, ComponentOverrides.Origin> origins, boolean adopted) {
	}

}
