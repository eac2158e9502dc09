package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.spring.LifecycleExit;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.context.support.AbstractApplicationContext;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Auto-configuration of the Lifecycle engine in a Spring application: the
 * {@link LifecycleManager}, the registration of {@code @ManagedComponent},
 * {@code @ShutdownHandler} and {@code @FinalAction} beans, the adoption of the context's other
 * {@code Lifecycle} beans through its lifecycle processor, the coordinator that ties the engine
 * to the context's start and close, readiness publishing, the signal trap and the process exit.
 */
@AutoConfiguration(before = org.springframework.boot.autoconfigure.context.LifecycleAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "lifecycle.enabled", matchIfMissing = true)
@EnableConfigurationProperties(LifecycleProperties.class)
public final class LifecycleAutoConfiguration {

	private static final Log logger = LogFactory.getLog(LifecycleAutoConfiguration.class);

	/** Spring Boot's default for {@code spring.lifecycle.timeout-per-shutdown-phase}. */
	static final Duration SPRING_DEFAULT_TIMEOUT_PER_SHUTDOWN_PHASE = Duration.ofSeconds(30);

	@Bean
	@ConditionalOnMissingBean
	LifecycleManager lifecycleManager(LifecycleProperties properties, Environment environment,
			ComponentOrigins origins) {
		if (InertLifecycleAutoConfiguration.isDisabled(environment)) {
			return InertLifecycleAutoConfiguration.inertManager(environment);
		}
		LifecycleManager.Builder builder = LifecycleSettings.of(properties, environment)
			.builder()
			.componentOptions((name, options) -> origins.resolve(name, options, properties.getComponents()));
		RunKind run = RunKind.current();
		if (!run.keepsRecords()) {
			// This run ends on purpose before the service's life: leave nothing for its next start.
			builder.runMarker(null);
		}
		builder.runMarkerAtStart(run.recordsFromStart());
		if (run != RunKind.SERVICE) {
			logger.info("Lifecycle: " + run.setting() + (run.keepsRecords()
					? "; the run marker and shutdown reports begin when the application starts"
					: "; this run writes no run marker or shutdown report and traps no signal"));
		}
		if (Threading.VIRTUAL.isActive(environment)) {
			// Engine threads mostly wait (drains, handlers, stop callbacks): virtual threads cost nothing there.
			builder.threadFactory(new VirtualThreadTaskExecutor("lifecycle-").getVirtualThreadFactory());
		}
		return builder.build();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static ComponentOrigins lifecycleComponentOrigins() {
		return new ComponentOrigins();
	}

	@Bean
	static ManagedComponentRegistrar lifecycleManagedComponentRegistrar(ObjectProvider<LifecycleManager> manager,
			ObjectProvider<LifecycleProperties> properties, ComponentOrigins origins) {
		return new ManagedComponentRegistrar(manager, properties, origins);
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "lifecycle.adoption.enabled", matchIfMissing = true)
	static AdoptedExecutorsPostProcessor lifecycleAdoptedExecutorsPostProcessor(
			ObjectProvider<LifecycleProperties> properties) {
		return new AdoptedExecutorsPostProcessor(properties);
	}

	/**
	 * The context's lifecycle processor, under the name Spring looks up; Spring Boot's own
	 * auto-configuration backs off when it exists.
	 */
	@Bean(name = AbstractApplicationContext.LIFECYCLE_PROCESSOR_BEAN_NAME)
	@ConditionalOnBooleanProperty(name = "lifecycle.adoption.enabled", matchIfMissing = true)
	@ConditionalOnMissingBean(name = AbstractApplicationContext.LIFECYCLE_PROCESSOR_BEAN_NAME,
			search = SearchStrategy.CURRENT)
	AdoptingLifecycleProcessor lifecycleProcessor(ObjectProvider<LifecycleManager> manager,
			LifecycleProperties properties, ManagedComponentRegistrar registrar, ComponentOrigins origins,
			Environment environment, ObjectProvider<AdoptedExecutorsPostProcessor> executors) {
		Duration springTimeout = Binder.get(environment)
			.bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
			.orElse(SPRING_DEFAULT_TIMEOUT_PER_SHUTDOWN_PHASE);
		// Asked at run time too: conditions are frozen in an application processed ahead of time.
		boolean adopting = !InertLifecycleAutoConfiguration.isDisabled(environment);
		return new AdoptingLifecycleProcessor(manager, properties, registrar, origins, springTimeout, adopting,
				executors);
	}

	@Bean
	@ConditionalOnMissingBean
	LifecycleExit lifecycleExit(LifecycleProperties properties) {
		return properties.getSignals().isTrap() ? LifecycleExit.system() : LifecycleExit.none();
	}

	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static BeanDestructionTracker lifecycleBeanDestructionTracker() {
		return new BeanDestructionTracker();
	}

	@Bean
	ShutdownExit lifecycleShutdownExit(ConfigurableApplicationContext context, LifecycleExit exit,
			LifecycleManager manager, LifecycleProperties properties, BeanDestructionTracker destructions,
			ObjectProvider<CeilingHaltHook> haltHooks) {
		IntConsumer halt = (code) -> Runtime.getRuntime().halt(code);
		AtomicReference<ShutdownExit> self = new AtomicReference<>();
		CeilingWatchdog watchdog = properties.isHaltAfterCeiling()
				? new CeilingWatchdog(manager.globalShutdownTimeout(), destructions, halt,
						() -> self.get().isEnding(), () -> haltHooks.orderedStream().toList())
				: null;
		ShutdownExit shutdownExit = new ShutdownExit(context, exit, properties.isCloseContext(),
				manager.globalShutdownTimeout().plus(LifecycleCoordinator.CEILING_SLACK), manager, watchdog);
		self.set(shutdownExit);
		if (properties.isHaltAfterCeiling()) {
			SpringApplication.getShutdownHandlers().add(() -> shutdownExit.haltIfTheCeilingFired(halt));
		}
		return shutdownExit;
	}

	@Bean
	ReadinessStatePublisher lifecycleReadinessStatePublisher(ConfigurableApplicationContext context,
			ObjectProvider<ApplicationAvailability> availability) {
		// Resolving the availability bean first orders this listener after it; see the class doc.
		return new ReadinessStatePublisher(context, availability.getIfAvailable());
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnBooleanProperty(name = "lifecycle.signals.trap", matchIfMissing = true)
	SignalTrap lifecycleSignalTrap(LifecycleManager manager, ShutdownExit exit, LifecycleProperties properties,
			Environment environment) {
		SignalTrap trap = new SignalTrap(manager, exit);
		// From here on, not only once the engine has started: a signal during start-up must not end
		// the JVM with 143 and half-started beans. Asked again at run time: under AOT the condition
		// above was frozen at build time.
		if (properties.getSignals().isTrap() && !InertLifecycleAutoConfiguration.isDisabled(environment)
				&& RunKind.current().trapsSignals()) {
			trap.install();
		}
		return trap;
	}

	@Bean
	SmartLifecycle lifecycleCoordinator(LifecycleManager manager, ManagedComponentRegistrar registrar,
			ShutdownExit exit, ObjectProvider<SignalTrap> signalTrap, ObjectProvider<LifecycleListener> listeners,
			ObjectProvider<AdoptingLifecycleProcessor> processor, LifecycleProperties properties,
			Environment environment) {
		// Asked here as well as in the conditions, which are frozen in an application processed
		// ahead of time: the off switch and the signal trap must still work at run time.
		if (InertLifecycleAutoConfiguration.isDisabled(environment)) {
			return NEVER_STARTED;
		}
		SignalTrap trap = properties.getSignals().isTrap() ? signalTrap.getIfAvailable() : null;
		return new LifecycleCoordinator(manager, registrar, exit, trap, listeners.orderedStream().toList(),
				processor.getIfAvailable() != null);
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
