package dev.lifecycle.shapes;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.stereotype.Component;

/** A prototype behind a class-based scoped proxy: a new instance on every call. */
@Component
@Scope(value = ConfigurableBeanFactory.SCOPE_PROTOTYPE, proxyMode = ScopedProxyMode.TARGET_CLASS)
class Stamp {

	private static final AtomicInteger created = new AtomicInteger();

	private final int number = created.incrementAndGet();

	int number() {
		return this.number;
	}

}
