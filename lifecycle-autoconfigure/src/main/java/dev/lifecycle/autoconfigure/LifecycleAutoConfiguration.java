package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.LifecycleMetrics;
import dev.lifecycle.spring.LifecycleExit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of the Lifecycle engine in a Spring application: the
 * {@link LifecycleManager}, the registration of {@code @ManagedComponent},
 * {@code @ShutdownHandler} and {@code @FinalAction} beans, the coordinator that ties the engine
 * to the context's start and close, readiness publishing, the signal trap and the process exit.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = "lifecycle.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LifecycleProperties.class)
public final class LifecycleAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LifecycleManager lifecycleManager(LifecycleProperties properties, Environment environment,
			ObjectProvider<LifecycleMetrics> metrics) {
		if (InertLifecycleAutoConfiguration.isDisabled(environment)) {
			return InertLifecycleAutoConfiguration.inertManager(environment);
		}
		return LifecycleSettings.of(properties, environment)
			.builder()
			.metrics(metrics.getIfAvailable(LifecycleMetrics::noop))
			.build();
	}

	@Bean
	static BeanPostProcessor lifecycleManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleProperties> properties, Environment environment) {
		if (InertLifecycleAutoConfiguration.isDisabled(environment)) {
			return new InertLifecycleAutoConfiguration.InertComponentRegistrar(manager);
		}
		return new ManagedComponentRegistrar(manager, properties);
	}

	@Bean
	@ConditionalOnMissingBean
	LifecycleExit lifecycleExit(LifecycleProperties properties) {
		return properties.getSignals().isTrap() ? LifecycleExit.system() : LifecycleExit.none();
	}

	@Bean
	ShutdownExit lifecycleShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit,
			LifecycleManager manager, LifecycleProperties properties) {
		return new ShutdownExit(context, exit, properties.isCloseContext(),
				manager.globalShutdownTimeout().plus(LifecycleCoordinator.CEILING_SLACK));
	}

	@Bean
	ReadinessStatePublisher lifecycleReadinessStatePublisher(ConfigurableApplicationContext context,
			ObjectProvider<ApplicationAvailability> availability) {
		// Resolving the availability bean first orders this listener after it; see the class doc.
		return new ReadinessStatePublisher(context, availability.getIfAvailable());
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "lifecycle.signals.trap", matchIfMissing = true)
	SignalTrap lifecycleSignalTrap(LifecycleManager manager, ShutdownExit exit) {
		return new SignalTrap(manager, exit);
	}

	@Bean
	SmartLifecycle lifecycleCoordinator(LifecycleManager manager, ObjectProvider<ManagedComponentRegistrar> registrar,
			ShutdownExit exit, ObjectProvider<SignalTrap> signalTrap, ObjectProvider<LifecycleListener> listeners,
			LifecycleProperties properties, Environment environment) {
		// Asked here as well as in the conditions, which are frozen in an application processed
		// ahead of time: the off switch and the signal trap must still work at run time.
		if (InertLifecycleAutoConfiguration.isDisabled(environment)) {
			return NEVER_STARTED;
		}
		SignalTrap trap = properties.getSignals().isTrap() ? signalTrap.getIfAvailable() : null;
		return new LifecycleCoordinator(manager, registrar.getObject(), exit, trap,
				listeners.orderedStream().toList());
	}

	/** Stands in for the coordinator when Lifecycle is off at run time: nothing to start or stop. */
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
