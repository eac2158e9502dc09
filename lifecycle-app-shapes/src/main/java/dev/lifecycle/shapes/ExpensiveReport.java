package dev.lifecycle.shapes;

import java.util.concurrent.atomic.AtomicBoolean;

import org.springframework.context.annotation.Lazy;
import org.springframework.stereotype.Component;

/** A lazy bean, injected through a lazy injection point: created on first use. */
@Component
@Lazy
class ExpensiveReport {

	static final AtomicBoolean created = new AtomicBoolean();

	ExpensiveReport() {
		created.set(true);
	}

	String render() {
		return "report";
	}

}
