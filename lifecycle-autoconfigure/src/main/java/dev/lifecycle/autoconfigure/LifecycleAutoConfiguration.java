package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.LifecycleExit;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

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
	LifecycleManager lifecycleManager(LifecycleProperties properties, Environment environment) {
		LifecycleManager.Builder builder = LifecycleSettings.of(properties, environment).builder();
		if (Threading.VIRTUAL.isActive(environment)) {
			// Engine threads mostly wait (drains, handlers, stop callbacks): virtual threads cost nothing there.
			builder.threadFactory(new VirtualThreadTaskExecutor("lifecycle-").getVirtualThreadFactory());
		}
		return builder.build();
	}

	@Bean
	static ManagedComponentRegistrar lifecycleManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleProperties> properties) {
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
	LifecycleCoordinator lifecycleCoordinator(LifecycleManager manager, ManagedComponentRegistrar registrar,
			ShutdownExit exit, ObjectProvider<SignalTrap> signalTrap, ObjectProvider<LifecycleListener> listeners) {
		return new LifecycleCoordinator(manager, registrar, exit, signalTrap.getIfAvailable(),
				listeners.orderedStream().toList());
	}

}
