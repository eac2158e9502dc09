package dev.lifecycle.core;

import java.util.Objects;

/**
 * The trigger that started a shutdown: its reason, the component (or source such as
 * {@code "signal"}) that caused it, and a free-text detail such as a failure message.
 *
 * @param reason why the shutdown started
 * @param component the component or source that triggered it, never {@code null}
 * @param detail a human-readable detail, empty when there is none
 */
public record ShutdownTrigger(ShutdownReason reason, String component, String detail) {

	/** Validates that reason and component are present; a null detail becomes empty. */
	public ShutdownTrigger {
		Objects.requireNonNull(reason, "reason");
		Objects.requireNonNull(component, "component");
		detail = (detail != null) ? detail : "";
	}

}
