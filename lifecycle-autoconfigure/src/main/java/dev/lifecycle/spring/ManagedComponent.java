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
 * Marks a bean as a Lifecycle component (a stereotype, so the class becomes a bean by
 * itself): an {@link dev.lifecycle.core.ActiveComponent} runs on a thread the engine
 * provides, a {@link dev.lifecycle.core.PassiveComponent} gets start and stop callbacks,
 * any other bean ends once told to stop and its open critical sections have closed. It is
 * registered before its init callbacks, so its handle can be looked up from
 * {@code @PostConstruct} on. Values here are defaults that
 * {@code lifecycle.components.<name>.*} properties override, so operators can tune a
 * component without a build. Ahead-of-time processing registers the class for reflection,
 * so a native image keeps it. Attributes and kinds: {@code docs/concepts.md}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Component
public @interface ManagedComponent {

	/**
	 * The component name (the {@code component} metric label); defaults to the bean name.
	 */
	@AliasFor(annotation = Component.class, attribute = "value")
	String value() default "";

	/** Higher phases stop first and start last. */
	int phase() default 0;

	Tier tier() default Tier.STANDARD;

	/**
	 * Graceful shutdown budget, e.g. {@code "30s"}; empty for none (bounded by the global
	 * ceiling).
	 */
	String gracefulShutdown() default "";

	/** Liveness deadline, e.g. {@code "10s"}; empty for no health monitoring. */
	String livenessDeadline() default "";

	/** Consecutive stalled health checks before the component counts as stalled. */
	int stallThreshold() default 1;

	/** Whether the component's work is finite (enables automatic completion). */
	boolean finite() default false;

}
