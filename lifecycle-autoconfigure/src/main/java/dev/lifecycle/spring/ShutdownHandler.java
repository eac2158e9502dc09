package dev.lifecycle.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a no-argument method of a bean as a shutdown handler: it runs at the start of the shutdown
 * sequence, after the drain delay and while every component still runs (a final checkpoint needs a
 * live pipeline). Handlers run one after another in the
 * {@link org.springframework.core.annotation.Order Order} of the method (then of the bean), each on
 * its own thread bounded by {@link #timeout()}; a handler that throws or times out is logged and the
 * sequence goes on.
 *
 * <p>The annotation is {@link Reflective @Reflective}: ahead-of-time processing registers the
 * method for reflective invocation, so it also runs in a native image.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective
public @interface ShutdownHandler {

	/** A name for the logs; defaults to {@code beanName.methodName}. */
	String name() default "";

	/** How long the handler may run, e.g. {@code "120s"}. */
	String timeout() default "30s";

}
