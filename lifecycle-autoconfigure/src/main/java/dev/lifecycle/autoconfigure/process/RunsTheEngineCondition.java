package dev.lifecycle.autoconfigure.process;

import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches in a context that runs the engine itself: no ancestor context has a
 * {@link LifecycleManager}. A child context whose parent has one joins that engine.
 */
final class RunsTheEngineCondition extends SpringBootCondition {

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		BeanFactory parent = (beanFactory != null) ? beanFactory.getParentBeanFactory() : null;
		if (parent instanceof ListableBeanFactory ancestors && BeanFactoryUtils
			.beanNamesForTypeIncludingAncestors(ancestors, LifecycleManager.class, true, false).length > 0) {
			return ConditionOutcome.noMatch("a parent context runs the Lifecycle engine; this context joins it");
		}
		return ConditionOutcome.match("no parent context runs the Lifecycle engine");
	}

}
