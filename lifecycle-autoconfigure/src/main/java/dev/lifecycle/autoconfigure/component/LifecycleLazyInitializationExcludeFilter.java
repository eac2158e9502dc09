package dev.lifecycle.autoconfigure.component;

import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.LazyInitializationExcludeFilter;

/**
 * Keeps out of {@code spring.main.lazy-initialization} the beans that Lifecycle must see
 * at start-up: its own beans, which tie the engine to the context's start and close, and
 * the application's components, shutdown handlers and final actions, which would
 * otherwise never be created and so never drained or run.
 */
final class LifecycleLazyInitializationExcludeFilter implements LazyInitializationExcludeFilter {

	private static final String OWN_PACKAGE = "dev.lifecycle.autoconfigure.";

	private static final String ENGINE_PACKAGE = "dev.lifecycle.core.";

	@Override
	public boolean isExcluded(String beanName, BeanDefinition beanDefinition, Class<?> beanType) {
		return isLifecycles(beanDefinition, beanType) || BeanShapes.mustBeSeenAtStart(beanType);
	}

	private static boolean isLifecycles(BeanDefinition definition, Class<?> type) {
		return type.getName().startsWith(OWN_PACKAGE) || type.getName().startsWith(ENGINE_PACKAGE)
				|| startsWithOwnPackage(definition.getFactoryBeanName())
				|| (definition.getFactoryMethodName() != null && startsWithOwnPackage(definition.getBeanClassName()));
	}

	private static boolean startsWithOwnPackage(String name) {
		return name != null && name.startsWith(OWN_PACKAGE);
	}

}
