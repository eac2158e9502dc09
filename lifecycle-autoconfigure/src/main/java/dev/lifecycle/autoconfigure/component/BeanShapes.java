package dev.lifecycle.autoconfigure.component;

import dev.lifecycle.core.ShutdownTask;
import dev.lifecycle.spring.FinalAction;
import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.scope.ScopedObject;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.annotation.AnnotatedElementUtils;

/**
 * What a bean is, decided the way Spring's own post-processors decide it: from its
 * definition and its type, never by creating, initialising or asking a bean (a factory
 * bean asked for its product's scope while it is still being created fails the start; a
 * scoped proxy resolved outside its scope throws). A bean that cannot be judged so is
 * left alone, with one DEBUG line.
 */
final class BeanShapes {

	private static final Log logger = LogFactory.getLog(BeanShapes.class);

	private BeanShapes() {
	}

	/**
	 * Whether the object post-processed under this name is the one shared instance of a
	 * singleton, so that its shutdown methods may be called at the shutdown. A factory
	 * bean itself, a scoped proxy, a bean of another scope and a factory's product that
	 * the factory does not share are not; a factory's product is judged by the factory
	 * instance, which exists by the time its product is post-processed.
	 */
	static boolean isSharedInstance(ConfigurableListableBeanFactory beanFactory, Object bean, String beanName) {
		if (bean instanceof FactoryBean<?> || bean instanceof ScopedObject) {
			return false;
		}
		// Only finished singletons are read (containsSingleton first): asking for one in
		// creation would force its early reference.
		Object finished = beanFactory.containsSingleton(beanName) ? beanFactory.getSingleton(beanName) : null;
		if (!beanFactory.containsBeanDefinition(beanName)) {
			// A ready instance registered as a singleton, or an inner bean (never
			// shared).
			return finished == bean;
		}
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(beanName);
		if (!definition.isSingleton()) {
			return false;
		}
		if (finished instanceof FactoryBean<?> factory) {
			// A factory's product, post-processed under the factory's name.
			return isSharedProduct(factory, beanName);
		}
		return true;
	}

	private static boolean isSharedProduct(FactoryBean<?> factory, String beanName) {
		try {
			return factory.isSingleton();
		}
		catch (RuntimeException ex) {
			logger.debug("Lifecycle: left the product of factory bean '" + beanName
					+ "' alone: its factory could not say whether it is shared (" + ex + ")");
			return false;
		}
	}

	/**
	 * The type of a bean as its definition declares or predicts it, without initialising
	 * a factory bean; {@code null} when it cannot be told so.
	 */
	static @Nullable Class<?> declaredType(ConfigurableListableBeanFactory beanFactory, String beanName) {
		try {
			return beanFactory.getType(beanName, false);
		}
		catch (RuntimeException ex) {
			logger.debug("Lifecycle: left bean '" + beanName + "' alone: its type cannot be told without creating it ("
					+ ex + ")");
			return null;
		}
	}

	/**
	 * Whether Lifecycle must see a bean of this type at start-up, whatever the lazy
	 * setting: a {@link ManagedComponent}, a bean with {@link ShutdownHandler} or
	 * {@link FinalAction} methods, or a {@link ShutdownTask}.
	 */
	static boolean mustBeSeenAtStart(Class<?> type) {
		return AnnotatedElementUtils.hasAnnotation(type, ManagedComponent.class)
				|| ShutdownTask.class.isAssignableFrom(type) || ShutdownMethods.declaredBy(type);
	}

}
