package dev.lifecycle.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type that is public only so that another of Lifecycle's own packages can use
 * it. It is not API: it may change or go in any release, and applications must not use
 * it. Everything public in {@code dev.lifecycle.core}, {@code dev.lifecycle.spring} and
 * {@code dev.lifecycle.test} that does not carry it is API.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ ElementType.TYPE, ElementType.ANNOTATION_TYPE })
public @interface Internal {

}
