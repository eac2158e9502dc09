package dev.lifecycle.autoconfigure.component;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

import dev.lifecycle.autoconfigure.ComponentOverrides;
import dev.lifecycle.autoconfigure.LifecycleManagerProperties;
import dev.lifecycle.spring.ManagedComponent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.util.ClassUtils;

/**
 * Keeps every executor and scheduler bean that will be adopted working until its turn in
 * the shutdown, so that it can be drained then ({@link AdoptedExecutor}). Spring's
 * {@code ThreadPoolTaskExecutor} and {@code ThreadPoolTaskScheduler} would otherwise shut
 * down on the {@code ContextClosedEvent}, at the very start of a close:
 * {@code @Scheduled} methods would stop and {@code @Async} calls be rejected during the
 * drain delay and the shutdown handlers.
 */
final class AdoptedExecutorsPostProcessor implements BeanPostProcessor {

	private static final Log logger = LogFactory.getLog(AdoptedExecutorsPostProcessor.class);

	private final ObjectProvider<LifecycleManagerProperties> properties;

	private final Map<String, AdoptedExecutor> executors = new ConcurrentHashMap<>();

	private final ExecutorDecorators decorators;

	AdoptedExecutorsPostProcessor(ObjectProvider<LifecycleManagerProperties> properties,
			ExecutorDecorators decorators) {
		this.properties = properties;
		this.decorators = decorators;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof Executor executor && isAdopted(bean, beanName)) {
			if (bean instanceof ExecutorConfigurationSupport support) {
				support.setAcceptTasksAfterContextClose(true);
			}
			this.executors.put(beanName, AdoptedExecutor.prepare(executor, this.decorators));
		}
		return bean;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (!this.executors.containsKey(beanName)) {
			return bean;
		}
		if (CallerRunsAfterShutdown.appliesTo(bean)) {
			return CallerRunsAfterShutdown.decorate((ExecutorService) bean);
		}
		if (CallerRunsAfterShutdown.leftToItsClass(bean) && !CommonPool.is(bean)) {
			logger.info("Lifecycle: executor bean '" + beanName + "' (" + bean.getClass().getName()
					+ ") keeps its type: a task submitted to it after its turn in the shutdown is rejected as its"
					+ " class rejects it, not run on its caller (that would take a proxy of another type)");
		}
		return bean;
	}

	/**
	 * The adopted form of an executor bean: the one prepared before it initialised, or,
	 * for an executor this processor never saw (registered as a ready instance), one
	 * prepared now.
	 */
	AdoptedExecutor executor(String beanName, Executor bean) {
		return this.executors.computeIfAbsent(beanName, (name) -> AdoptedExecutor.prepare(bean, this.decorators));
	}

	/** Whether a bean was prepared for adoption as an executor. */
	Optional<AdoptedExecutor> prepared(String beanName) {
		return Optional.ofNullable(this.executors.get(beanName));
	}

	private boolean isAdopted(Object bean, String beanName) {
		LifecycleManagerProperties properties = this.properties.getObject();
		return properties.getAdoption().isEnabled()
				&& !Boolean.FALSE.equals(ComponentOverrides.find(properties.getComponents(), beanName).getAdopt())
				&& !AnnotatedElementUtils.hasAnnotation(ClassUtils.getUserClass(bean), ManagedComponent.class);
	}

}
