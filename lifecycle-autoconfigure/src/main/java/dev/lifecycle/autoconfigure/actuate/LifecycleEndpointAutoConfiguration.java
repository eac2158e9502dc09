package dev.lifecycle.autoconfigure.actuate;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the read-only {@link LifecycleEndpoint}. Like other endpoints it
 * exists only when exposed, e.g.
 * {@code management.endpoints.web.exposure.include=health,lifecycle}.
 */
@AutoConfiguration(after = LifecycleComponentAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(LifecycleManager.class)
@ConditionalOnLifecycleEnabled
public final class LifecycleEndpointAutoConfiguration {

	// On the method, not the class: the condition's class must not be loaded unless
	// @ConditionalOnClass above has already matched.
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnAvailableEndpoint(LifecycleEndpoint.class)
	LifecycleEndpoint lifecycleEndpoint(LifecycleManager manager, ObjectProvider<ComponentLedger> origins,
			ObjectProvider<InternalHooks> hooks) {
		return new LifecycleEndpoint(manager, origins.getIfAvailable(), hooks.getIfAvailable());
	}

}
