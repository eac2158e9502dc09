package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.ManagedComponent;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

/**
 * Lifecycle switched off with {@code lifecycle.enabled=false}: an inert, never started
 * {@link LifecycleManager}, so that an application whose beans inject it, look up a
 * handle or register a critical executor still starts, and Spring stops the application
 * as it would without Lifecycle. Handles accept heartbeats and critical sections without
 * effect, and a shutdown the application asks for is only recorded. In an AOT-processed
 * application the switch is read again at run time by
 * {@link LifecycleManagerAutoConfiguration}. What remains: {@code docs/concepts.md}.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = LifecycleSwitch.PROPERTY, havingValue = false)
public final class InertLifecycleAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LifecycleManager lifecycleManager(Environment environment) {
		return inertManager(environment);
	}

	/** A manager that is never started: no pre-stop file, no run marker, no metrics. */
	static LifecycleManager inertManager(Environment environment) {
		String serviceName = environment.getProperty("lifecycle.service-name",
				environment.getProperty("spring.application.name", "application"));
		return LifecycleManager
			.builder(StringUtils.hasText(serviceName) ? serviceName.trim() : ManagerSettings.DEFAULT_SERVICE_NAME)
			.build();
	}

	@Bean
	static InertComponentRegistrar lifecycleInertComponentRegistrar(ObjectProvider<LifecycleManager> manager) {
		return new InertComponentRegistrar(manager);
	}

	/**
	 * Gives every {@code @ManagedComponent} bean a handle on the inert manager, before
	 * its init callbacks as in the active mode, so a {@code @PostConstruct} lookup finds
	 * it.
	 */
	static final class InertComponentRegistrar implements BeanPostProcessor {

		private static final PassiveComponent NOTHING = new PassiveComponent() {

			@Override
			public void start(ComponentHandle handle) {
			}

			@Override
			public void stop(ComponentHandle handle) {
			}

		};

		private final ObjectProvider<LifecycleManager> manager;

		InertComponentRegistrar(ObjectProvider<LifecycleManager> manager) {
			this.manager = manager;
		}

		@Override
		public Object postProcessBeforeInitialization(Object bean, String beanName) {
			ManagedComponent annotation = AnnotatedElementUtils.findMergedAnnotation(ClassUtils.getUserClass(bean),
					ManagedComponent.class);
			if (annotation != null) {
				String name = StringUtils.hasText(annotation.value()) ? annotation.value() : beanName;
				LifecycleManager manager = this.manager.getObject();
				if (manager.handle(name).isEmpty()) {
					manager.registerPassive(name, ComponentOptions.defaults(), NOTHING);
				}
			}
			return bean;
		}

	}

}
