package dev.lifecycle.autoconfigure;

import dev.lifecycle.spring.ManagedComponent;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.util.ClassUtils;

/**
 * Keeps Spring's task executors and schedulers ({@link ExecutorConfigurationSupport}: the
 * {@code ThreadPoolTaskExecutor} behind {@code @Async}, the {@code ThreadPoolTaskScheduler} behind
 * {@code @Scheduled}) working after the context starts closing, when they are adopted.
 *
 * <p>By default such an executor shuts down on the {@code ContextClosedEvent}, which Spring
 * publishes at the very start of a close, before any lifecycle phase: {@code @Scheduled} methods
 * would stop firing and {@code @Async} calls would be rejected during the drain delay and the
 * shutdown handlers. Accepting tasks after the close event leaves the executor alone until the
 * engine stops it at its phase.
 */
final class AdoptedExecutorsPostProcessor implements BeanPostProcessor {

	private final ObjectProvider<LifecycleProperties> properties;

	AdoptedExecutorsPostProcessor(ObjectProvider<LifecycleProperties> properties) {
		this.properties = properties;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof ExecutorConfigurationSupport executor && isAdopted(bean, beanName)) {
			executor.setAcceptTasksAfterContextClose(true);
		}
		return bean;
	}

	private boolean isAdopted(Object bean, String beanName) {
		LifecycleProperties properties = this.properties.getObject();
		return properties.getAdoption().isEnabled()
				&& !Boolean.FALSE.equals(ComponentSettings.find(properties.getComponents(), beanName).getAdopt())
				&& !AnnotatedElementUtils.hasAnnotation(ClassUtils.getUserClass(bean), ManagedComponent.class);
	}

}
