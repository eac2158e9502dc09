package dev.lifecycle.autoconfigure.actuate;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code lifecycle} health contributor. Disable it with
 * {@code management.health.lifecycle.enabled=false}; replace it with a bean named
 * {@code lifecycleHealthIndicator}.
 */
@AutoConfiguration(after = LifecycleComponentAutoConfiguration.class, before = HealthContributorAutoConfiguration.class)
@ConditionalOnClass(Health.class)
@ConditionalOnBean(LifecycleManager.class)
@ConditionalOnLifecycleEnabled
public final class LifecycleHealthContributorAutoConfiguration {

	// On the method, not the class: the condition's class must not be loaded unless
	// @ConditionalOnClass above has already matched.
	@Bean
	@ConditionalOnMissingBean(name = "lifecycleHealthIndicator")
	@ConditionalOnEnabledHealthIndicator("lifecycle")
	LifecycleHealthIndicator lifecycleHealthIndicator(LifecycleManager manager) {
		return new LifecycleHealthIndicator(manager);
	}

}
