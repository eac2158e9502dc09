package dev.lifecycle.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a no-argument method of a bean as a shutdown handler: it runs after the drain
 * delay while every component still runs, because a final checkpoint needs a live
 * pipeline. Handlers run one after another in
 * {@link org.springframework.core.annotation.Order Order} (of the method, then the bean),
 * each bounded by {@link #timeout()}; one that throws or times out is logged, makes the
 * exit code 1, and the sequence goes on. {@link Reflective @Reflective}, so it also runs
 * in a native image.
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
