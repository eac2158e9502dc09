/**
 * Actuator integration: the {@code lifecycle} health contributor, the {@code lifecycle}
 * endpoint (read-only by default) and the shutdown timeline it serves. Loaded only with
 * Spring Boot Actuator.
 */
@NullMarked
package dev.lifecycle.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
