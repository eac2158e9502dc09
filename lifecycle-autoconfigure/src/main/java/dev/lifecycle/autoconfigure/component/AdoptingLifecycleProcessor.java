package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.ComponentOverrides;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.InvalidLifecycleConfigurationException;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.OptionErrors;
import dev.lifecycle.autoconfigure.RequestsInFlight;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.InvalidOptionException;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Tier;
import dev.lifecycle.core.TriggerSource;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationContextException;
import org.springframework.context.ApplicationListener;
import org.springframework.context.Lifecycle;
import org.springframework.context.event.ApplicationEventMulticaster;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.SimpleAsyncTaskScheduler;

/**
 * The context's {@code lifecycleProcessor}: Spring's own
 * {@link DefaultLifecycleProcessor}, except that every {@link Lifecycle} bean Lifecycle
 * does not run itself is adopted as a component when the context refreshes and left out
 * when Spring stops its beans on close, so that the whole application drains in one
 * order. Spring still starts every bean; the engine stops them, and executors, schedulers
 * and the beans that Spring stops after the web server or that the web server and the
 * components use ({@link AdoptionOrder}) in the {@link Tier#INFRASTRUCTURE} tier after
 * the web server. Why this seam and not proxies or a close listener:
 * {@code docs/decisions.md}; what is adopted and what is left to Spring:
 * {@code docs/whole-application.md}.
 */
final class AdoptingLifecycleProcessor extends DefaultLifecycleProcessor implements ApplicationContextAware {

	private static final Log logger = LogFactory.getLog(AdoptingLifecycleProcessor.class);

	private final ObjectProvider<LifecycleManager> manager;

	private final LifecycleManagerProperties properties;

	private final ManagedComponentRegistrar registrar;

	private final ComponentLedger origins;

	private final Duration springTimeout;

	/**
	 * False when Lifecycle is off at run time: then this is Spring's own processor,
	 * nothing more.
	 */
	private final boolean adopting;

	private final Map<String, Lifecycle> adopted = new LinkedHashMap<>();

	/** Executor beans adopted that are no {@code Lifecycle}. */
	private final List<String> plainExecutors = new ArrayList<>();

	private final Map<String, AdoptedLifecycleBean> components = new LinkedHashMap<>();

	private final ObjectProvider<AdoptedExecutorsPostProcessor> executors;

	private volatile ConfigurableListableBeanFactory beanFactory;

	private volatile boolean closing;

	/** Where the refresh is; only the refreshing thread moves it. */
	private volatile Refresh refresh = Refresh.BEFORE;

	/** Whether Spring has listed the beans it starts during this refresh. */
	private volatile boolean startListed;

	private volatile @Nullable EngineLink coordinator;

	private final InternalHooks hooks;

	/** Names the bean whose start failed; {@code null} when not adopting. */
	private final @Nullable FailedStartNames failedStarts;

	private volatile @Nullable ApplicationContext context;

	/**
	 * @param springTimeout Spring's {@code spring.lifecycle.timeout-per-shutdown-phase}:
	 * the budget of an adopted bean without one of its own, and the phase timeout of the
	 * beans left to Spring
	 */
	AdoptingLifecycleProcessor(ObjectProvider<LifecycleManager> manager, LifecycleManagerProperties properties,
			ManagedComponentRegistrar registrar, ComponentLedger origins, Duration springTimeout, boolean adopting,
			ObjectProvider<AdoptedExecutorsPostProcessor> executors, InternalHooks hooks) {
		this.executors = executors;
		this.hooks = hooks;
		this.failedStarts = adopting ? FailedStartNames.resolve(hooks) : null;
		this.manager = manager;
		this.properties = properties;
		this.registrar = registrar;
		this.origins = origins;
		this.springTimeout = springTimeout;
		this.adopting = adopting;
		setTimeoutPerShutdownPhase(springTimeout.toMillis());
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		super.setBeanFactory(beanFactory);
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	/**
	 * Adopts the beans, then lets Spring start them. When a bean's start throws, Spring's
	 * own stop of what had started is held back, the shutdown is recorded as a failed
	 * start naming the bean and the cause, and then everything stops as a close would
	 * stop it: each adopted bean once, in the engine's sequence.
	 */
	@Override
	public void onRefresh() {
		if (!this.adopting) {
			super.onRefresh();
			return;
		}
		adopt();
		// Before any bean starts, so that a misspelt entry cannot leave a port bound.
		this.registrar.checkOverrides(this.manager.getObject());
		this.refresh = Refresh.STARTING;
		try {
			super.onRefresh();
		}
		catch (ApplicationContextException ex) {
			this.refresh = Refresh.FAILED;
			startFailed(ex);
			throw ex;
		}
		finally {
			if (this.refresh != Refresh.FAILED) {
				this.refresh = Refresh.DONE;
			}
		}
	}

	@Override
	public void onClose() {
		this.closing = true;
		super.onClose();
	}

	/**
	 * While the context closes, or after a failed start, Spring stops only the beans that
	 * were not adopted.
	 */
	@Override
	protected Map<String, Lifecycle> getLifecycleBeans() {
		Map<String, Lifecycle> beans = super.getLifecycleBeans();
		if (this.refresh == Refresh.STARTING) {
			if (this.startListed) {
				// Spring lists the beans a second time during the refresh only to stop
				// what it started, because a start threw. Nothing stops yet:
				// startFailed() first records the failure.
				return new LinkedHashMap<>();
			}
			this.startListed = true;
			beans.values()
				.stream()
				.filter(EngineLink.class::isInstance)
				.findFirst()
				.ifPresent((coordinator) -> this.coordinator = (EngineLink) coordinator);
		}
		if (this.closing || this.refresh == Refresh.FAILED) {
			beans.keySet().removeAll(this.adopted.keySet());
		}
		return beans;
	}

	/** Records the failed start, then stops everything that started as a close would. */
	private void startFailed(ApplicationContextException ex) {
		Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
		FailedStartNames failedStarts = this.failedStarts;
		String bean = (failedStarts != null) ? failedStarts.beanOf(ex) : null;
		String name = (bean != null) ? bean : TriggerSource.REFRESH.label();
		EngineLink coordinator = this.coordinator;
		if (coordinator != null) {
			coordinator.startFailed(name, cause);
		}
		try {
			stop();
		}
		catch (RuntimeException stopFailure) {
			ex.addSuppressed(stopFailure);
		}
	}

	/**
	 * The separate management server answers the probes and serves the metrics: it stops
	 * in the sequence's last step, after everything else, and Spring then finds it
	 * stopped.
	 */
	private void addManagementServerLastStep(LifecycleManager manager, BootLifecycles boot) {
		Lifecycle bean = boot.managementServer();
		if (bean != null) {
			manager.addLastStep("management server stop", this.springTimeout, () -> {
				if (bean.isRunning()) {
					bean.stop();
				}
			});
		}
	}

	/**
	 * What the web servers serve on (Reactor Netty's shared event loops) stops after the
	 * separate management server, which serves on it too, so the probes and the metrics
	 * answer to the end; Spring then finds it stopped.
	 */
	private void stopAfterTheManagementServer(LifecycleManager manager, String name, Lifecycle bean) {
		manager.addLastStep(name + " stop", this.springTimeout, () -> {
			if (bean.isRunning()) {
				bean.stop();
			}
		});
		this.adopted.put(name, bean);
		logger.info("Lifecycle: bean '" + name + "' serves the web servers and stops after the management server");
	}

	/**
	 * Spring stops the beans that depend on a bean before the bean itself; the engine
	 * stops a phase concurrently, so each adopted bean waits for its adopted dependents
	 * of the same phase. A dependent in a lower phase would stop after the bean it needs:
	 * said once, at start.
	 */
	private void orderDependentsFirst(LifecycleManager manager) {
		Map<String, ComponentView> views = new LinkedHashMap<>();
		manager.components().forEach((view) -> views.put(view.name(), view));
		this.components.forEach((name, component) -> {
			ComponentView view = views.get(name);
			List<AdoptedLifecycleBean.Dependent> first = new ArrayList<>();
			for (String dependentName : this.beanFactory.getDependentBeans(name)) {
				AdoptedLifecycleBean dependent = this.components.get(dependentName);
				ComponentView dependentView = views.get(dependentName);
				if (dependent == null || dependentView == null || view == null) {
					continue;
				}
				if (dependentView.phase() == view.phase()) {
					first.add(new AdoptedLifecycleBean.Dependent(dependent, dependentView));
				}
				else if (dependentView.phase() < view.phase()) {
					String message = "Lifecycle: '" + dependentName + "' depends on '" + name
							+ "' but stops after it (phase " + dependentView.phase() + " < " + view.phase()
							+ "); give it a phase of at least " + view.phase() + " if it needs '" + name
							+ "' while it stops";
					// A framework's own beans (a Spring Integration flow and its
					// endpoints) order themselves and their phases are not the
					// application's to give.
					if (isFrameworks(this.adopted.get(dependentName))) {
						logger.debug(message);
					}
					else {
						logger.warn(message);
					}
				}
			}
			component.dependents(first);
		});
	}

	private static boolean isFrameworks(@Nullable Lifecycle bean) {
		return bean != null && bean.getClass().getName().startsWith("org.springframework.");
	}

	/**
	 * The requests of this context's own web server: a child context (a management
	 * server) does not stop its parent's.
	 */
	private @Nullable RequestsInFlight requestsInFlight() {
		String[] names = this.beanFactory.getBeanNamesForType(RequestsInFlight.class, false, false);
		return (names.length == 1) ? this.beanFactory.getBean(names[0], RequestsInFlight.class) : null;
	}

	/** The adopted beans by name, in the order they were adopted. */
	Map<String, Lifecycle> adopted() {
		return Map.copyOf(this.adopted);
	}

	private void adopt() {
		LifecycleManager manager = this.manager.getObject();
		Map<String, LifecycleManagerProperties.Component> overrides = this.properties.getComponents();
		Map<String, Lifecycle> beans = getLifecycleBeans();
		BootLifecycles boot = BootLifecycles.find(beans, this.context, this.hooks);
		try {
			WebServerSteps.add(manager, boot, this.springTimeout, requestsInFlight());
			// Before the management server's stop: what it serves may still tell about
			// the wait. A child context that joins the engine of its parent shares its
			// step.
			if (!ContextJoin.joins(this.beanFactory)) {
				manager.addLastStep("common pool", this.springTimeout, CommonPool::awaitQuiet);
			}
			addManagementServerLastStep(manager, boot);
		}
		catch (InvalidOptionException ex) {
			// Their timeout is Spring's per-phase timeout: the engine's error names that
			// property.
			throw OptionErrors.setting(ex, OptionErrors.SPRING_PHASE_TIMEOUT);
		}
		AdoptionOrder order = new AdoptionOrder(this.beanFactory, webServerPhase(boot),
				this.registrar::isManagedComponentBean);
		Map<String, String> afterWebServer = new LinkedHashMap<>();
		beans.forEach((name, bean) -> {
			if (bean instanceof EngineLink || boot.isBoots(bean) || this.registrar.isManagedComponentBean(name)
					|| this.adopted.containsKey(name)) {
				return;
			}
			if (Boolean.FALSE.equals(ComponentOverrides.find(overrides, name).getAdopt())) {
				this.origins.leftToSpring(name);
				return;
			}
			AdoptedExecutor executor = (bean instanceof Executor pool) ? executor(name, pool) : null;
			if (executor == null && boot.managementServer() != null && order.servesWebServers(name)) {
				stopAfterTheManagementServer(manager, name, bean);
				return;
			}
			AdoptionOrder.Place place = order.place(name, bean, getPhase(bean));
			Tier tier = (executor != null) ? Tier.INFRASTRUCTURE : place.tier();
			if (executor == null && place.why() != null) {
				afterWebServer.put(name, place.why());
			}
			register(manager, name, bean, place.phase(), tier,
					"Spring Lifecycle bean '" + name + "' (" + bean.getClass().getName() + ")",
					new AdoptedLifecycleBean(bean, executor), overrides);
		});
		adoptExecutors(manager, overrides);
		orderDependentsFirst(manager);
		if (!this.adopted.isEmpty()) {
			logger.info("Lifecycle: adopted " + this.adopted.size() + " Spring lifecycle bean(s) as components: "
					+ this.adopted.keySet());
		}
		afterWebServer.forEach((name, why) -> logger.info("Lifecycle: adopted bean '" + name
				+ "' stops with the infrastructure, after the web server and the components: " + why));
		if (!this.plainExecutors.isEmpty()) {
			logger.info("Lifecycle: adopted " + this.plainExecutors.size() + " executor bean(s) as infrastructure: "
					+ this.plainExecutors);
		}
	}

	private @Nullable AdoptedExecutor executor(String name, Executor bean) {
		AdoptedExecutorsPostProcessor executors = this.executors.getIfAvailable();
		return (executors != null) ? executors.executor(name, bean) : null;
	}

	/**
	 * An executor the engine made ({@code LifecycleManager.registerExecutor}) is a
	 * component already.
	 */
	private static boolean isEngines(Object bean) {
		return bean.getClass().getName().startsWith(LifecycleManager.class.getPackageName() + ".");
	}

	/**
	 * The phase at which Spring begins the web server's shutdown: its graceful
	 * shutdown's, or its stop's when it has none; {@code null} without a web server.
	 */
	private @Nullable Integer webServerPhase(BootLifecycles boot) {
		Lifecycle graceful = boot.gracefulShutdown();
		Lifecycle startStop = boot.startStop();
		return (graceful != null) ? Integer.valueOf(getPhase(graceful))
				: (startStop != null) ? Integer.valueOf(getPhase(startStop)) : null;
	}

	/**
	 * Executors that are no {@code Lifecycle} bean (Boot's virtual-thread
	 * {@code SimpleAsyncTaskExecutor}, a {@code ConcurrentTaskExecutor}, a plain
	 * {@code ExecutorService}) are adopted too, at the phase Spring gives its own
	 * executors unless configured, so all executors and schedulers drain together: Spring
	 * would only close them when it destroys the beans.
	 */
	private void adoptExecutors(LifecycleManager manager, Map<String, LifecycleManagerProperties.Component> overrides) {
		for (String name : this.beanFactory.getBeanNamesForType(Executor.class, false, false)) {
			if (this.adopted.containsKey(name) || this.plainExecutors.contains(name)
					|| this.registrar.isManagedComponentBean(name) || !this.beanFactory.containsSingleton(name)) {
				continue;
			}
			if (Boolean.FALSE.equals(ComponentOverrides.find(overrides, name).getAdopt())) {
				this.origins.leftToSpring(name);
				continue;
			}
			Object bean = this.beanFactory.getSingleton(name);
			if (!(bean instanceof Executor pool) || bean instanceof Lifecycle || isEngines(bean)) {
				continue;
			}
			if (CommonPool.is(bean)) {
				logger.info("Lifecycle: executor bean '" + name + "' is the JDK's common pool, which never terminates:"
						+ " not adopted; the shutdown's last step waits for the work handed to it");
				continue;
			}
			AdoptedExecutor executor = executor(name, pool);
			if (executor == null) {
				continue;
			}
			register(manager, name, null, ExecutorConfigurationSupport.DEFAULT_PHASE, Tier.INFRASTRUCTURE,
					"executor bean '" + name + "' (" + bean.getClass().getName() + ")",
					new AdoptedLifecycleBean(null, executor), overrides);
			this.plainExecutors.add(name);
		}
	}

	private void register(LifecycleManager manager, String name, @Nullable Lifecycle bean, int phase, Tier tier,
			String description, AdoptedLifecycleBean component,
			Map<String, LifecycleManagerProperties.Component> overrides) {
		ComponentOverrides.Declared declared = new ComponentOverrides.Declared(phase, tier, this.springTimeout, null, 1,
				false, ComponentOverrides.Origin.SPRING, description);
		ComponentOverrides.Resolved resolved = ComponentOverrides.resolve(name, declared, overrides);
		this.origins.record(name, resolved, true);
		try {
			// An adopted bean serves the components that do the work: it never holds back
			// their completion.
			manager.registerPassive(name, resolved.options().withSupporting(true), component);
		}
		catch (InvalidOptionException ex) {
			throw OptionErrors.component(ex, resolved);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidLifecycleConfigurationException("lifecycle.components." + name,
					"cannot adopt Spring bean '" + name + "': " + ex.getMessage(),
					"Rename the bean or the component that uses the same name, or set 'lifecycle.components." + name
							+ ".adopt=false' to leave the bean to Spring.");
		}
		if (bean != null) {
			this.adopted.put(name, bean);
			this.components.put(name, component);
			if (bean instanceof SimpleAsyncTaskScheduler) {
				stopListeningForContextClosed(name, bean);
			}
		}
	}

	/**
	 * Spring's {@code SimpleAsyncTaskScheduler} stops its triggers on the
	 * {@code ContextClosedEvent}, at the very start of a close; adopted, it keeps firing
	 * until its turn in the sequence, so it no longer hears the event.
	 */
	private void stopListeningForContextClosed(String name, Lifecycle bean) {
		if (!this.beanFactory.containsBean(AbstractApplicationContext.APPLICATION_EVENT_MULTICASTER_BEAN_NAME)) {
			return;
		}
		ApplicationEventMulticaster multicaster = this.beanFactory.getBean(
				AbstractApplicationContext.APPLICATION_EVENT_MULTICASTER_BEAN_NAME, ApplicationEventMulticaster.class);
		multicaster.removeApplicationListenerBean(name);
		if (bean instanceof ApplicationListener<?> listener) {
			multicaster.removeApplicationListener(listener);
		}
	}

	private enum Refresh {

		BEFORE, STARTING, DONE, FAILED

	}

}
