package dev.lifecycle.autoconfigure.component;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;

import dev.lifecycle.autoconfigure.ProcessLocalServer;
import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.Lifecycle;
import org.springframework.util.ClassUtils;

/**
 * Where an adopted {@link Lifecycle} bean stops: in the standard drain, before the web
 * server's graceful shutdown, or in the {@link Tier#INFRASTRUCTURE} tier, after the web
 * server has stopped and after every component. Spring's own order is the floor: a bean
 * that plain Spring stops after the web server (its phase is below the web server's
 * graceful-shutdown phase) is never stopped before it. Beyond that, whatever the web
 * server or a component uses stops after them: a bean that a web server factory or a
 * {@code @ManagedComponent} bean depends on, directly or not, and a
 * {@link ProcessLocalServer} (an in-process gRPC server), which only this process's own
 * clients reach and which stops last of all. Decided from phases, dependencies and what
 * the bean serves, never from a type's name; a {@code lifecycle.components.<bean>.tier}
 * or {@code .phase} property still wins.
 */
final class AdoptionOrder {

	private static final String WEB_SERVER_FACTORY = "org.springframework.boot.web.server.WebServerFactory";

	private final ConfigurableListableBeanFactory beanFactory;

	/**
	 * The phase at which Spring begins the web server's graceful shutdown; null without a
	 * web server.
	 */
	private final @Nullable Integer webServerPhase;

	private final Predicate<String> isComponent;

	private final @Nullable Class<?> webServerFactory;

	/**
	 * @param webServerPhase the phase of the web server's graceful-shutdown lifecycle (or
	 * of its start-stop lifecycle when there is none); {@code null} when the application
	 * runs no web server
	 * @param isComponent whether a bean is a {@code @ManagedComponent}
	 */
	AdoptionOrder(ConfigurableListableBeanFactory beanFactory, @Nullable Integer webServerPhase,
			Predicate<String> isComponent) {
		this.beanFactory = beanFactory;
		this.webServerPhase = webServerPhase;
		this.isComponent = isComponent;
		this.webServerFactory = ClassUtils.isPresent(WEB_SERVER_FACTORY, beanFactory.getBeanClassLoader())
				? ClassUtils.resolveClassName(WEB_SERVER_FACTORY, beanFactory.getBeanClassLoader()) : null;
	}

	/**
	 * Where one adopted bean stops, with its Spring phase.
	 * @param name the bean's name
	 * @param bean the bean
	 * @param phase its Spring phase
	 */
	Place place(String name, Lifecycle bean, int phase) {
		if (bean instanceof ProcessLocalServer server && server.servesOnlyThisProcess()) {
			return new Place(Tier.INFRASTRUCTURE, Integer.MIN_VALUE,
					"serves only this process's own clients: stops after everything that may call it");
		}
		if (this.webServerPhase != null && phase < this.webServerPhase) {
			return new Place(Tier.INFRASTRUCTURE, phase,
					"Spring stops it after the web server (phase " + phase + " < " + this.webServerPhase + ")");
		}
		String user = user(name);
		if (user != null) {
			return new Place(Tier.INFRASTRUCTURE, phase, "used by '" + user + "'");
		}
		return new Place(Tier.STANDARD, phase, null);
	}

	/**
	 * Whether a web server factory uses the bean, directly or through other beans: the
	 * resources a web server serves on (Reactor Netty's event loops), which a separate
	 * management server of the same stack shares.
	 */
	boolean servesWebServers(String name) {
		String user = user(name);
		return user != null && isWebServerFactory(user);
	}

	/**
	 * The web server factory or component that uses a bean, directly or through other
	 * beans.
	 */
	private @Nullable String user(String name) {
		Set<String> seen = new HashSet<>();
		Deque<String> next = new ArrayDeque<>();
		next.add(name);
		while (!next.isEmpty()) {
			for (String dependent : this.beanFactory.getDependentBeans(next.poll())) {
				if (!seen.add(dependent)) {
					continue;
				}
				if (this.isComponent.test(dependent) || isWebServerFactory(dependent)) {
					return dependent;
				}
				next.add(dependent);
			}
		}
		return null;
	}

	private boolean isWebServerFactory(String name) {
		if (this.webServerFactory == null || !this.beanFactory.containsBean(name)) {
			return false;
		}
		// The declared type: asking isTypeMatch would initialise a lazy factory bean.
		Class<?> type = BeanShapes.declaredType(this.beanFactory, name);
		return type != null && this.webServerFactory.isAssignableFrom(type);
	}

	/**
	 * Where an adopted bean stops.
	 *
	 * @param tier its tier
	 * @param phase its phase within the tier
	 * @param why why it stops after the web server, {@code null} in the standard drain
	 */
	record Place(Tier tier, int phase, @Nullable String why) {
	}

}
