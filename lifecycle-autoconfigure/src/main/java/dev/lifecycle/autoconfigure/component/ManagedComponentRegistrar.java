package dev.lifecycle.autoconfigure.component;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.ComponentOverrides;
import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.autoconfigure.LifecycleKeys;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.ManagedComponentAttributes;
import dev.lifecycle.autoconfigure.OptionErrors;
import dev.lifecycle.core.ActiveComponent;
import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Connects beans to the engine. A {@link ManagedComponent} bean is registered as a
 * component (active, passive, or a plain one that ends when told to stop) before its init
 * callbacks run, so that its handle can be looked up with
 * {@link LifecycleManager#handle(String)} from its {@code @PostConstruct} on; the engine
 * calls the bean as finally exposed (proxies included). The shutdown handlers and final
 * actions of singletons are collected by {@link ShutdownMethods} and handed to the engine
 * when it starts.
 */
@Internal
public final class ManagedComponentRegistrar implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware {

	private final ObjectProvider<LifecycleManager> manager;

	private final ObjectProvider<LifecycleManagerProperties> properties;

	private final ComponentLedger origins;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private @Nullable Environment environment;

	private final Map<String, String> componentSources = new ConcurrentHashMap<>();

	private final Map<String, AtomicReference<Object>> exposedBeans = new ConcurrentHashMap<>();

	private final ShutdownMethods shutdownMethods = new ShutdownMethods(this::resolvePlaceholders);

	ManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleManagerProperties> properties, ComponentLedger origins) {
		this.manager = manager;
		this.properties = properties;
		this.origins = origins;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
		if (ContextJoin.joins(this.beanFactory)) {
			// A child context: its components join the engine of its parent, which has
			// started; its ContextJoin starts them and closes the join.
			LifecycleHost.of(this.manager.getObject()).openToJoin();
		}
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = ClassUtils.getUserClass(bean);
		ManagedComponent annotation = AnnotatedElementUtils.findMergedAnnotation(type, ManagedComponent.class);
		// A component of another scope fails the start in instantiateLazyComponents(),
		// named.
		if (annotation != null && isSharedInstance(bean, beanName)) {
			registerComponent(bean, beanName, type, annotation);
		}
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		AtomicReference<Object> exposed = this.exposedBeans.get(beanName);
		if (exposed != null) {
			exposed.set(bean);
		}
		if (isSharedInstance(bean, beanName)) {
			this.shutdownMethods.collect(bean, beanName);
		}
		return bean;
	}

	// ---- components
	// ----------------------------------------------------------------------------

	private void registerComponent(Object bean, String beanName, Class<?> type, ManagedComponent annotation) {
		String name = StringUtils.hasText(annotation.value()) ? annotation.value() : beanName;
		String source = "bean '" + beanName + "' (" + type.getName() + ")";
		LifecycleManager manager = this.manager.getObject();
		String existing = this.componentSources.putIfAbsent(name, source);
		if (existing != null || manager.handle(name).isPresent()) {
			throw new InvalidLifecycleConfigurationException("@ManagedComponent(\"" + name + "\")",
					"is used by " + source + " and " + ((existing != null) ? existing : "another registration")
							+ "; component names must be unique",
					"Give each component its own name with @ManagedComponent(\"...\"); names are the metric "
							+ "'component' label and the key under 'lifecycle.components'.");
		}
		if (bean instanceof ActiveComponent && bean instanceof PassiveComponent) {
			throw new InvalidLifecycleConfigurationException("@ManagedComponent on " + source,
					"implements both ActiveComponent and PassiveComponent",
					"Implement ActiveComponent (a loop on an engine thread) or PassiveComponent (start and stop "
							+ "callbacks), not both.");
		}
		ComponentOverrides.Resolved resolved = ComponentOverrides.resolve(name,
				ManagedComponentAttributes.declared(annotation, source, this::resolvePlaceholders),
				this.properties.getObject().getComponents());
		ComponentOptions options = resolved.options();
		this.origins.record(name, resolved, false);
		AtomicReference<Object> exposed = new AtomicReference<>(bean);
		this.exposedBeans.put(beanName, exposed);
		try {
			if (bean instanceof ActiveComponent) {
				manager.registerActive(name, options, (handle) -> ((ActiveComponent) exposed.get()).run(handle));
			}
			else if (bean instanceof PassiveComponent) {
				manager.registerPassive(name, options, new ExposedPassiveComponent(exposed));
			}
			else {
				// Registered as passive with nothing to stop rather than as a
				// process-scoped component: a bean without threads of its own would
				// otherwise hold every shutdown until the global ceiling.
				manager.registerPassive(name, options, new ExposedPassiveComponent(null));
			}
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("Lifecycle: " + source + " was created after Lifecycle started; a "
					+ "@ManagedComponent must be a singleton created at start-up, not a prototype or scoped bean", ex);
		}
		catch (InvalidOptionException ex) {
			throw OptionErrors.component(ex, resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException("lifecycle.components." + name,
					"is invalid: " + ex.getMessage(), "Fix the component's @ManagedComponent attributes or its "
							+ "'lifecycle.components." + name + ".*' properties.");
		}
	}

	/**
	 * Whether the bean of that name is a {@code @ManagedComponent}, and so a component
	 * already.
	 */
	boolean isManagedComponentBean(String beanName) {
		return this.exposedBeans.containsKey(beanName);
	}

	/**
	 * Creates the lazy singleton components, so that every component is registered before
	 * the engine starts, and fails the start on a component that is no singleton. Each
	 * bean is judged by its definition and declared type: no factory bean is initialised
	 * to learn its product's type.
	 * @throws InvalidLifecycleConfigurationException naming a component of another scope
	 */
	void instantiateLazyComponents() {
		ConfigurableListableBeanFactory beanFactory = this.beanFactory;
		if (beanFactory == null) {
			return;
		}
		for (String beanName : beanFactory.getBeanDefinitionNames()) {
			BeanDefinition definition = beanFactory.getMergedBeanDefinition(beanName);
			if (definition.isAbstract()) {
				continue;
			}
			Class<?> type = BeanShapes.declaredType(beanFactory, beanName);
			if (type == null || FactoryBean.class.isAssignableFrom(type)
					|| !AnnotatedElementUtils.hasAnnotation(type, ManagedComponent.class)) {
				continue;
			}
			if (!definition.isSingleton()) {
				String scope = StringUtils.hasText(definition.getScope()) ? definition.getScope() : "prototype";
				throw new InvalidLifecycleConfigurationException("@ManagedComponent on bean '" + beanName + "'",
						"is a bean of scope '" + scope + "'; a component lives as long as the application",
						"Remove the @Scope from " + type.getName() + " (a component must be a singleton), or move what "
								+ "needs that scope into a bean of its own that the component uses.");
			}
			if (!this.exposedBeans.containsKey(beanName)) {
				beanFactory.getBean(beanName);
			}
		}
	}

	/**
	 * What the context's link to the engine does once every singleton exists: the lazy
	 * components are created, and without adoption (which checks them when the context
	 * refreshes) the {@code lifecycle.components} entries are checked.
	 */
	void singletonsInstantiated(LifecycleManager manager, boolean adoption) {
		instantiateLazyComponents();
		if (!adoption) {
			checkOverrides(manager);
		}
	}

	/**
	 * Hands the collected shutdown handlers and final actions to the engine.
	 */
	void registerHandlers(LifecycleManager manager) {
		this.shutdownMethods.register(manager);
	}

	/**
	 * Checks that every {@code lifecycle.components} entry names a registered component,
	 * since a misspelt override would otherwise be ignored in silence.
	 */
	void checkOverrides(LifecycleManager manager) {
		if (this.environment != null) {
			LifecycleKeys.check(this.environment, this.beanFactory);
		}
		List<String> registered = manager.components().stream().map(ComponentView::name).toList();
		Set<String> canonical = registered.stream()
			.map(ComponentOverrides::canonical)
			.collect(Collectors.toCollection(HashSet::new));
		this.origins.beansLeftToSpring().forEach((name) -> canonical.add(ComponentOverrides.canonical(name)));
		for (String key : this.properties.getObject().getComponents().keySet()) {
			if (!canonical.contains(ComponentOverrides.canonical(key))) {
				throw new InvalidLifecycleConfigurationException("lifecycle.components." + key,
						"does not name a registered component; registered components are " + registered,
						"Correct the name under 'lifecycle.components' to one of " + registered
								+ " (a component's name is its @ManagedComponent value, else its bean name; an adopted "
								+ "Spring Lifecycle bean's is its bean name), or remove the entry.");
			}
		}
	}

	private boolean isSharedInstance(Object bean, String beanName) {
		return this.beanFactory != null && BeanShapes.isSharedInstance(this.beanFactory, bean, beanName);
	}

	/**
	 * Resolves placeholders; one that resolves to nothing (a configured null value) gives
	 * "".
	 */
	private String resolvePlaceholders(String value) {
		String resolved = (this.beanFactory != null) ? this.beanFactory.resolveEmbeddedValue(value) : value;
		return (resolved != null) ? resolved : "";
	}

	/**
	 * Calls the bean as exposed after initialization, so proxies around it apply, and
	 * never stops a bean that was not started (the engine asks a component that a failed
	 * start left unstarted to stop as well).
	 */
	private static final class ExposedPassiveComponent implements PassiveComponent {

		private final @Nullable AtomicReference<Object> exposed;

		private volatile boolean started;

		/**
		 * @param exposed the bean, or {@code null} for a plain component with nothing to
		 * call
		 */
		ExposedPassiveComponent(@Nullable AtomicReference<Object> exposed) {
			this.exposed = exposed;
		}

		@Override
		public void start(ComponentHandle handle) throws Exception {
			this.started = true;
			if (this.exposed != null) {
				((PassiveComponent) this.exposed.get()).start(handle);
			}
		}

		@Override
		public void stop(ComponentHandle handle) throws Exception {
			if (this.started && this.exposed != null) {
				((PassiveComponent) this.exposed.get()).stop(handle);
			}
		}

	}

}
