package dev.lifecycle.autoconfigure.process;

import java.time.Duration;

import dev.lifecycle.core.LifecycleManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.Environment;

/**
 * Ways for {@link ProcessTestApplication} to fail its start, each behind a property:
 * <ul>
 * <li>{@code process-test.throwing-constructor} — a bean whose constructor throws;</li>
 * <li>{@code process-test.throwing-refresh-listener} — a {@code ContextRefreshedEvent}
 * listener that throws;</li>
 * <li>{@code process-test.throwing-ready-listener} — an {@code ApplicationReadyEvent}
 * listener that throws;</li>
 * <li>{@code process-test.pause-after-manager} — hold the start this long right after the
 * Lifecycle manager exists (its run marker is written), before the signal trap is
 * installed;</li>
 * <li>{@code process-test.runner} — an {@code ApplicationRunner} that says when it is
 * called.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
class StartFailureConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(StartFailureConfiguration.class);

	@Bean
	@ConditionalOnBooleanProperty("process-test.throwing-constructor")
	Object brokenRepository() {
		throw new IllegalStateException("database unreachable");
	}

	@Bean
	@ConditionalOnBooleanProperty("process-test.throwing-refresh-listener")
	ApplicationListener<ContextRefreshedEvent> throwingRefreshListener() {
		return (event) -> {
			throw new IllegalStateException("cache warm-up failed");
		};
	}

	@Bean
	@ConditionalOnBooleanProperty("process-test.throwing-ready-listener")
	ApplicationListener<ApplicationReadyEvent> throwingReadyListener() {
		return (event) -> {
			throw new IllegalStateException("registration failed");
		};
	}

	@Bean
	@ConditionalOnBooleanProperty("process-test.runner")
	ApplicationRunner announcingRunner() {
		return (arguments) -> logger.info("process-test: runner called");
	}

	@Bean
	@ConditionalOnProperty("process-test.pause-after-manager")
	static BeanPostProcessor pauseAfterManager(Environment environment) {
		Duration pause = environment.getRequiredProperty("process-test.pause-after-manager", Duration.class);
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof LifecycleManager) {
					logger.info("pause after manager: waiting {} ms", pause.toMillis());
					try {
						Thread.sleep(pause.toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
				return bean;
			}
		};
	}

}
