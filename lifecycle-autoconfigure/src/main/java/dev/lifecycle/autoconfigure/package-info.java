/**
 * Spring Boot integration for Lifecycle, the root every concern package builds on: the
 * {@code lifecycle.*} properties and their translation into the engine's settings and
 * each component's options, the off switch, the engine's auto-configuration, readiness
 * publishing and the failure analyzers for invalid configuration. This package uses none
 * of its sub-packages; each of them registers its own auto-configuration after this
 * one's.
 */
@NullMarked
package dev.lifecycle.autoconfigure;

import org.jspecify.annotations.NullMarked;
