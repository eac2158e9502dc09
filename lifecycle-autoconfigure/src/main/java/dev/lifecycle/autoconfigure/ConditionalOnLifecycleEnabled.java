package dev.lifecycle.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.lifecycle.core.Internal;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * Matches unless {@code lifecycle.enabled=false}: the one spelling of Lifecycle's off
 * switch in a condition. Conditions are frozen when an application is processed ahead of
 * time, so code that must also obey the switch at run time asks {@link LifecycleSwitch}.
 */
@Internal
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnBooleanProperty(name = LifecycleSwitch.PROPERTY, matchIfMissing = true)
public @interface ConditionalOnLifecycleEnabled {

}
