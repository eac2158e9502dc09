package dev.lifecycle.autoconfigure.web;

import dev.lifecycle.core.LifecycleManager;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.web.server.WebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Makes the engine before the web server is made. Spring makes the web server before the
 * application's beans, and a server that cannot even be made (its temporary directory
 * cannot be created) would otherwise fail the start before the engine existed, with no
 * record of it; with the engine made first, that failed start is recorded like any other
 * (with reason {@code start-failed}, by the failed start's recorder).
 */
final class EngineBeforeTheWebServer implements WebServerFactoryCustomizer<WebServerFactory>, Ordered {

	private final ObjectProvider<LifecycleManager> manager;

	EngineBeforeTheWebServer(ObjectProvider<LifecycleManager> manager) {
		this.manager = manager;
	}

	@Override
	public void customize(WebServerFactory factory) {
		this.manager.getIfAvailable();
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

}
