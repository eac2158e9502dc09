package dev.lifecycle.shapes;

import java.util.UUID;

import org.springframework.stereotype.Component;
import org.springframework.web.context.annotation.RequestScope;

/** A request-scoped bean behind a scoped proxy, injected into a singleton. */
@Component
@RequestScope
class RequestGreeting {

	private final String id = UUID.randomUUID().toString();

	String id() {
		return this.id;
	}

}
