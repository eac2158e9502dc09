package dev.lifecycle.autoconfigure.component;

import java.time.Duration;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.autoconfigure.LifecycleSwitch;
import dev.lifecycle.autoconfigure.process.LifecycleProcessAutoConfiguration;
import dev.lifecycle.autoconfigure.process.ShutdownExit;
import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the components: the registration of {@code @ManagedComponent},
 * {@code @ShutdownHandler} and {@code @FinalAction} beans, the adoption of the context's
 * other {@code Lifecycle} beans and executors through its lifecycle processor, and the
 * coordinator that ties the engine to the context's start and close (in a child context
 * whose parent runs the engine, the child's join to it). Before Spring Boot's own
 * lifecycle processor, which backs off when this one exists.
 */
@AutoConfiguration(after = LifecycleProcessAutoConfiguration.class, before = LifecycleAutoConfiguration.class)
@ConditionalOnLifecycleEnabled
@ImportRuntimeHints(ExecutorDecorators.Hints.class)
public final class LifecycleComponentAutoConfiguration {

	/** Spring Boot's default for {@code spring.lifecycle.timeout-per-shutdown-phase}. */
	static final Duration SPRING_DEFAULT_TIMEOUT_PER_SHUTDOWN_PHASE = Duration.ofSeconds(30);

	/**
	 * Spring's {@code spring.lifecycle.timeout-per-shutdown-phase}: the budget of adopted
	 * beans and of the web server's graceful shutdown.
	 */
	public static Duration springTimeoutPerShutdownPhase(Environment environment) {
		return Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(SPRING_DEFAULT_TIMEOUT_PER_SHUTDOWN_PHASE);
	}

	@Bean
	static ManagedComponentRegistrar lifecycleManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleManagerProperties> properties, ComponentLedger origins) {
		return new ManagedComponentRegistrar(manager, properties, origins);
	}

	/**
	 * Keeps the beans Lifecycle must see out of {@code spring.main.lazy-initialization}.
	 */
	@Bean
	static LazyInitializationExcludeFilter lifecycleLazyInitializationExcludeFilter() {
		return new LifecycleLazyInitializationExcludeFilter();
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "lifecycle.adoption.enabled", matchIfMissing = true)
	static AdoptedExecutorsPostProcessor lifecycleAdoptedExecutorsPostProcessor(
			ObjectProvider<LifecycleManagerProperties> properties, ObjectProvider<InternalHooks> hooks) {
		return new AdoptedExecutorsPostProcessor(properties,
				ExecutorDecorators.resolve(hooks.getIfAvailable(InternalHooks::new)));
	}

	/**
	 * The context's lifecycle processor, under the name Spring looks up; Spring Boot's
	 * own auto-configuration backs off when it exists.
	 */
	@Bean(name = AbstractApplicationContext.LIFECYCLE_PROCESSOR_BEAN_NAME)
	@ConditionalOnBooleanProperty(name = "lifecycle.adoption.enabled", matchIfMissing = true)
	@ConditionalOnMissingBean(name = AbstractApplicationContext.LIFECYCLE_PROCESSOR_BEAN_NAME,
			search = SearchStrategy.CURRENT)
	AdoptingLifecycleProcessor lifecycleProcessor(ObjectProvider<LifecycleManager> manager,
			LifecycleManagerProperties properties, ManagedComponentRegistrar registrar, ComponentLedger origins,
			Environment environment, ObjectProvider<AdoptedExecutorsPostProcessor> executors,
			ObjectProvider<InternalHooks> hooks) {
		Duration springTimeout = springTimeoutPerShutdownPhase(environment);
		// Asked at run time too: conditions are frozen in an application processed ahead
		// of time.
		boolean adopting = !LifecycleSwitch.isOff(environment);
		return new AdoptingLifecycleProcessor(manager, properties, registrar, origins, springTimeout, adopting,
				executors, hooks.getIfAvailable(InternalHooks::new));
	}

	/**
	 * The coordinator of the context that runs the engine; in a child context whose
	 * parent runs it, the child's join to that engine.
	 */
	@Bean
	SmartLifecycle lifecycleCoordinator(LifecycleManager manager, ManagedComponentRegistrar registrar,
			ObjectProvider<ShutdownExit> exit, ObjectProvider<LifecycleListener> listeners,
			ObjectProvider<AdoptingLifecycleProcessor> processor, Environment environment,
			ListableBeanFactory beanFactory) {
		// Asked here as well as in the conditions, which are frozen in an application
		// processed ahead of time: the off switch must still work at run time (the
		// ShutdownExit asks again whether to trap the signals).
		if (LifecycleSwitch.isOff(environment)) {
			return NEVER_STARTED;
		}
		boolean adoption = processor.getIfAvailable() != null;
		if (ContextJoin.joins(beanFactory)) {
			return new ContextJoin(manager, registrar, exit.getIfAvailable(), listeners.orderedStream().toList(),
					adoption);
		}
		return new LifecycleCoordinator(manager, registrar, exit.getObject(), listeners.orderedStream().toList(),
				adoption);
	}

	/**
	 * Stands in for the coordinator when Lifecycle is off at run time: nothing to start
	 * or stop.
	 */
	private static final SmartLifecycle NEVER_STARTED = new SmartLifecycle() {

		@Override
		public void start() {
		}

		@Override
		public void stop() {
		}

		@Override
		public boolean isRunning() {
			return false;
		}

		@Override
		public boolean isAutoStartup() {
			return false;
		}

	};

}
