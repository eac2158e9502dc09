package dev.lifecycle.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Marks a no-argument method of a bean as a final action: it runs after every standard
 * component has drained and before the observability components stop. Final actions run
 * in reverse order of registration (beans in reverse creation order), so cleanup mirrors
 * set-up.
 *
 * <p>
 * The annotation is {@link Reflective @Reflective}: ahead-of-time processing registers
 * the method for reflective invocation, so it also runs in a native image.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective
public @interface FinalAction {

	/** A name for the logs; defaults to {@code beanName.methodName}. */
	String name() default "";

}
