package dev.lifecycle.shapes;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.stereotype.Component;
import org.springframework.web.context.annotation.SessionScope;

/** A session-scoped bean behind a scoped proxy, injected into a singleton. */
@Component
@SessionScope
class SessionBasket {

	private final AtomicInteger items = new AtomicInteger();

	int add() {
		return this.items.incrementAndGet();
	}

}
