package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleManager;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Auto-configuration of the Lifecycle engine: the {@link LifecycleManager} built from
 * {@code lifecycle.*}, the record of where each component's options came from, and
 * readiness publishing. The process (signals, exit) and the components (registration,
 * adoption, the coordinator) are configured after it by their own packages'
 * auto-configurations.
 */
@AutoConfiguration
@ConditionalOnLifecycleEnabled
@EnableConfigurationProperties(LifecycleManagerProperties.class)
@ImportRuntimeHints(LifecycleKeys.MetadataHints.class)
public final class LifecycleManagerAutoConfiguration {

	private static final Log logger = LogFactory.getLog(LifecycleManagerAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	LifecycleManager lifecycleManager(LifecycleManagerProperties properties, Environment environment,
			ComponentLedger origins) {
		if (LifecycleSwitch.isOff(environment)) {
			return InertLifecycleAutoConfiguration.inertManager(environment);
		}
		if (ManagerSettings.usesDefaultServiceName(properties, environment)) {
			logger.warn("Lifecycle: neither 'spring.application.name' nor 'lifecycle.service-name' is set; the service"
					+ " is named '" + ManagerSettings.DEFAULT_SERVICE_NAME + "' in Lifecycle's metrics and files. Set "
					+ "spring.application.name (for example spring.application.name=orders) to name it.");
		}
		LifecycleManager.Builder builder = ManagerSettings.of(properties, environment)
			.builder()
			.componentOptions((name, options) -> origins.resolve(name, options, properties.getComponents()));
		RunKind run = RunKind.current();
		if (!run.keepsRecords()) {
			// This run ends on purpose before the service's life: leave nothing for its
			// next start.
			builder.runMarker(null);
		}
		builder.runMarkerAtStart(run.recordsFromStart());
		if (run != RunKind.SERVICE) {
			logger.info("Lifecycle: " + run.setting()
					+ (run.keepsRecords() ? "; the run marker and shutdown reports begin when the application starts"
							: "; this run writes no run marker or shutdown report and traps no signal"));
		}
		if (Threading.VIRTUAL.isActive(environment)) {
			// Engine threads mostly wait (drains, handlers, stop callbacks): virtual
			// threads cost nothing there.
			builder.threadFactory(new VirtualThreadTaskExecutor("lifecycle-").getVirtualThreadFactory());
		}
		return builder.build();
	}

	/**
	 * One ledger per engine: a child context that joins its parent's engine records its
	 * components in the parent's.
	 */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	@ConditionalOnMissingBean
	static ComponentLedger lifecycleComponentOrigins() {
		return new ComponentLedger();
	}

	/**
	 * Lifecycle's hooks into server and Spring internals, each resolved once by the bean
	 * that needs it.
	 */
	@Bean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static InternalHooks lifecycleInternalHooks() {
		return new InternalHooks();
	}

	@Bean
	ReadinessStatePublisher lifecycleReadinessStatePublisher(ConfigurableApplicationContext context,
			ObjectProvider<ApplicationAvailability> availability) {
		// Resolving the availability bean first orders this listener after it; see the
		// class doc.
		return new ReadinessStatePublisher(context, availability.getIfAvailable());
	}

}
