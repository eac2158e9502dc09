package dev.lifecycle.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a no-argument method of a bean as a final action: it runs after every standard component
 * has drained and before the observability components stop. Final actions run in reverse order of
 * registration (beans in reverse creation order), so cleanup mirrors set-up.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface FinalAction {

	/** A name for the logs; defaults to {@code beanName.methodName}. */
	String name() default "";

}
