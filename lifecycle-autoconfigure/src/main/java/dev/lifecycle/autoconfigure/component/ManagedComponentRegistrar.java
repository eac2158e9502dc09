package dev.lifecycle.autoconfigure.component;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.FinalAction;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.annotation.Order;
import org.springframework.core.annotation.OrderUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Connects beans to the engine. A {@link ManagedComponent} bean is registered as a component
 * (active, passive, or a plain one that ends when told to stop) before its init callbacks run, so
 * that its handle can be looked up with {@link LifecycleManager#handle(String)} from its
 * {@code @PostConstruct} on; the engine calls the bean as finally exposed (proxies included). {@link ShutdownHandler} and {@link FinalAction}
 * methods of singletons, and singletons implementing the core
 * {@link dev.lifecycle.core.ShutdownTask}, are collected and handed to the engine when it
 * starts, handlers sorted by {@link Order @Order}.
 */
@Internal
public final class ManagedComponentRegistrar implements BeanPostProcessor, BeanFactoryAware, EnvironmentAware {

	/** The timeout of a bean implementing the core shutdown handler interface. */
	static final Duration DEFAULT_HANDLER_TIMEOUT = Duration.ofSeconds(30);

	private static final List<Class<? extends java.lang.annotation.Annotation>> METHOD_ANNOTATIONS = List
		.of(ShutdownHandler.class, FinalAction.class);

	private final ObjectProvider<LifecycleManager> manager;

	private final ObjectProvider<LifecycleManagerProperties> properties;

	private final ComponentLedger origins;

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private @Nullable Environment environment;

	private final Map<String, String> componentSources = new ConcurrentHashMap<>();

	private final Map<String, AtomicReference<Object>> exposedBeans = new ConcurrentHashMap<>();

	private final Set<Class<?>> classesWithoutMethods = ConcurrentHashMap.newKeySet();

	private final List<Handler> handlers = new ArrayList<>();

	private final List<Action> finalActions = new ArrayList<>();

	private final AtomicInteger sequence = new AtomicInteger();

	ManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleManagerProperties> properties, ComponentLedger origins) {
		this.manager = manager;
		this.properties = properties;
		this.origins = origins;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
		Class<?> type = ClassUtils.getUserClass(bean);
		ManagedComponent annotation = AnnotatedElementUtils.findMergedAnnotation(type, ManagedComponent.class);
		if (annotation != null) {
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
		if (isSingleton(beanName)) {
			collectHandlers(bean, beanName);
		}
		return bean;
	}

	// ---- components ----------------------------------------------------------------------------

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
				// Registered as passive with nothing to stop rather than as a process-scoped
				// component: a bean without threads of its own would otherwise hold every
				// shutdown until the global ceiling.
				manager.registerPassive(name, options, new ExposedPassiveComponent(null));
			}
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("Lifecycle: " + source + " was created after Lifecycle started; a "
					+ "@ManagedComponent must be a singleton created at start-up, not a prototype or scoped bean",
					ex);
		}
		catch (InvalidOptionException ex) {
			throw OptionErrors.component(ex, resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException("lifecycle.components." + name, "is invalid: "
					+ ex.getMessage(), "Fix the component's @ManagedComponent attributes or its "
							+ "'lifecycle.components." + name + ".*' properties.");
		}
	}

	/** Whether the bean of that name is a {@code @ManagedComponent}, and so a component already. */
	boolean isManagedComponentBean(String beanName) {
		return this.exposedBeans.containsKey(beanName);
	}

	/**
	 * Creates the lazy singleton components, so that every component is registered before the
	 * engine starts.
	 */
	void instantiateLazyComponents() {
		for (String beanName : this.beanFactory.getBeanNamesForAnnotation(ManagedComponent.class)) {
			if (isSingleton(beanName)) {
				this.beanFactory.getBean(beanName);
			}
		}
	}

	/**
	 * Checks that every {@code lifecycle.components} entry names a registered component, since a
	 * misspelt override would otherwise be ignored in silence.
	 */
	void checkOverrides(LifecycleManager manager) {
		if (this.environment != null) {
			LifecycleKeys.check(this.environment, this.beanFactory);
		}
		List<String> registered = manager.components().stream().map(ComponentView::name).toList();
		Set<String> canonical = registered.stream().map(ComponentOverrides::canonical).collect(Collectors.toCollection(HashSet::new));
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

	// ---- shutdown handlers and final actions ----------------------------------------------------

	private void collectHandlers(Object bean, String beanName) {
		Class<?> type = AopUtils.getTargetClass(bean);
		if (bean instanceof dev.lifecycle.core.ShutdownTask handler) {
			addHandler(new Handler(beanName, DEFAULT_HANDLER_TIMEOUT, handler, beanOrder(bean, type),
					this.sequence.incrementAndGet(), "the shutdown handler bean '" + beanName + "'"));
		}
		if (this.classesWithoutMethods.contains(type) || !AnnotationUtils.isCandidateClass(type, METHOD_ANNOTATIONS)) {
			return;
		}
		Map<Method, ShutdownHandler> handlerMethods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<ShutdownHandler>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, ShutdownHandler.class));
		Map<Method, FinalAction> actionMethods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<FinalAction>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, FinalAction.class));
		if (handlerMethods.isEmpty() && actionMethods.isEmpty()) {
			this.classesWithoutMethods.add(type);
			return;
		}
		handlerMethods.forEach((method, annotation) -> {
			String name = StringUtils.hasText(annotation.name()) ? annotation.name()
					: beanName + "." + method.getName();
			Duration timeout = handlerTimeout(annotation, method);
			Method invocable = invocable(method, bean, "@ShutdownHandler");
			Order methodOrder = AnnotatedElementUtils.findMergedAnnotation(method, Order.class);
			int order = (methodOrder != null) ? methodOrder.value() : beanOrder(bean, type);
			addHandler(new Handler(name, timeout, () -> invoke(invocable, bean), order,
					this.sequence.incrementAndGet(), "@ShutdownHandler(timeout) on "
							+ method.getDeclaringClass().getName() + "." + method.getName()));
		});
		actionMethods.forEach((method, annotation) -> {
			String name = StringUtils.hasText(annotation.name()) ? annotation.name()
					: beanName + "." + method.getName();
			Method invocable = invocable(method, bean, "@FinalAction");
			addFinalAction(new Action(name, () -> {
				try {
					invoke(invocable, bean);
				}
				catch (RuntimeException ex) {
					throw ex;
				}
				catch (Exception ex) {
					throw new IllegalStateException("Final action '" + name + "' failed", ex);
				}
			}));
		});
	}

	/**
	 * Hands the collected handlers (in {@code @Order}, then creation order) and final actions (in
	 * creation order; the engine runs them in reverse) to the engine.
	 */
	void registerHandlers(LifecycleManager manager) {
		List<Handler> sortedHandlers;
		List<Action> actions;
		synchronized (this.handlers) {
			sortedHandlers = new ArrayList<>(this.handlers);
			actions = new ArrayList<>(this.finalActions);
		}
		sortedHandlers.sort(Comparator.comparingInt(Handler::order).thenComparingInt(Handler::sequence));
		for (Handler handler : sortedHandlers) {
			try {
				manager.addShutdownHandler(handler.name(), handler.timeout(), handler.handler());
			}
			catch (InvalidOptionException ex) {
				throw OptionErrors.setting(ex, handler.setting());
			}
		}
		actions.forEach((action) -> manager.addFinalAction(action.name(), action.action()));
	}

	private void addHandler(Handler handler) {
		synchronized (this.handlers) {
			this.handlers.add(handler);
		}
	}

	private void addFinalAction(Action action) {
		synchronized (this.handlers) {
			this.finalActions.add(action);
		}
	}

	private Duration handlerTimeout(ShutdownHandler annotation, Method method) {
		String setting = "@ShutdownHandler(timeout) on " + method.getDeclaringClass().getName() + "."
				+ method.getName();
		String value = resolvePlaceholders(annotation.timeout());
		Duration timeout;
		try {
			timeout = DurationStyle.detectAndParse(value.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException(setting, "is not a duration: '" + value + "'",
					"Use Spring Boot's duration format, such as \"30s\" or \"2m\".");
		}
		// The engine checks the range when the handler is added; its error names this setting.
		return timeout;
	}

	private static Method invocable(Method method, Object bean, String annotation) {
		if (method.getParameterCount() != 0) {
			throw new InvalidLifecycleConfigurationException(annotation + " on " + method.getDeclaringClass().getName()
					+ "." + method.getName(), "must annotate a method without parameters",
					"Remove the method's parameters; inject what it needs into its bean instead.");
		}
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		ReflectionUtils.makeAccessible(invocable);
		return invocable;
	}

	private static void invoke(Method method, Object bean) throws Exception {
		try {
			method.invoke(bean);
		}
		catch (InvocationTargetException ex) {
			Throwable cause = ex.getTargetException();
			if (cause instanceof Exception exception) {
				throw exception;
			}
			throw (Error) cause;
		}
	}

	private static int beanOrder(Object bean, Class<?> type) {
		if (bean instanceof Ordered ordered) {
			return ordered.getOrder();
		}
		return OrderUtils.getOrder(type, Ordered.LOWEST_PRECEDENCE);
	}

	private boolean isSingleton(String beanName) {
		return this.beanFactory != null && this.beanFactory.containsBean(beanName)
				&& this.beanFactory.isSingleton(beanName);
	}

	/** Resolves placeholders; one that resolves to nothing (a configured null value) gives "". */
	private String resolvePlaceholders(String value) {
		String resolved = (this.beanFactory != null) ? this.beanFactory.resolveEmbeddedValue(value) : value;
		return (resolved != null) ? resolved : "";
	}

	private record Handler(String name, Duration timeout, dev.lifecycle.core.ShutdownTask handler, int order,
			int sequence, String setting) {
	}

	private record Action(String name, Runnable action) {
	}

	/**
	 * Calls the bean as exposed after initialization, so proxies around it apply, and never stops
	 * a bean that was not started (the engine asks a component that a failed start left unstarted
	 * to stop as well).
	 */
	private static final class ExposedPassiveComponent implements PassiveComponent {

		private final @Nullable AtomicReference<Object> exposed;

		private volatile boolean started;

		/**
		 * @param exposed the bean, or {@code null} for a plain component with nothing to call
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
