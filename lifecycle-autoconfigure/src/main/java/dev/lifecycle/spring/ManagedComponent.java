package dev.lifecycle.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.lifecycle.core.Tier;

import org.springframework.aot.hint.annotation.Reflective;
import org.springframework.core.annotation.AliasFor;
import org.springframework.stereotype.Component;

/**
 * Marks a bean as a Lifecycle component; the annotation is a stereotype, so the class becomes a bean
 * by itself. A bean implementing {@link dev.lifecycle.core.ActiveComponent} runs on a thread the
 * engine provides; one implementing {@link dev.lifecycle.core.PassiveComponent} gets start and stop
 * callbacks; any other bean is a plain component: it ends as soon as it is told to stop and its
 * open {@link dev.lifecycle.core.ComponentHandle#critical() critical sections} have closed, which
 * suits a bean whose work runs on other beans' threads (a controller guarding requests, say). A bean
 * that runs threads of its own should implement one of the two interfaces so the drain waits for
 * them.
 *
 * <p>The component is registered before the bean's init callbacks, so any bean can look up its
 * handle with {@link dev.lifecycle.core.LifecycleManager#handle(String)} from a
 * {@code @PostConstruct} method on (the advisory pattern: a fallback reads another component's
 * {@code isHealthy()}); inject the component bean, or use {@code @DependsOn}, to make sure it exists
 * first. Components must be singletons.
 *
 * <p>Values here are defaults: {@code lifecycle.components.<name>.*} properties win over them.
 * Durations use Spring Boot's format ({@code 30s}, {@code 500ms}, {@code PT1M}); an empty string
 * means "not set".
 *
 * <p>The annotation is {@link Reflective @Reflective}: ahead-of-time processing registers the
 * component's class for reflection, so its annotation is read in a native image too.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface ManagedComponent {

	/** The component name (the {@code component} metric label); defaults to the bean name. */
	@AliasFor(annotation = Component.class, attribute = "value")
	String value() default "";

	/** Higher phases stop first and start last. */
	int phase() default 0;

	Tier tier() default Tier.STANDARD;

	/** Graceful shutdown budget, e.g. {@code "30s"}; empty for none (bounded by the global ceiling). */
	String gracefulShutdown() default "";

	/** Liveness deadline, e.g. {@code "10s"}; empty for no health monitoring. */
	String livenessDeadline() default "";

	/** Consecutive stalled health checks before the component counts as stalled. */
	int stallThreshold() default 1;

	/** Whether the component's work is finite (enables automatic completion). */
	boolean finite() default false;

}
