package dev.lifecycle.autoconfigure.web.http2;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.core.Internal;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.AbstractProtocol;
import org.apache.coyote.http11.upgrade.InternalHttpUpgradeHandler;
import org.apache.coyote.http11.upgrade.UpgradeProcessorInternal;
import org.apache.tomcat.util.net.AbstractEndpoint;
import org.apache.tomcat.util.net.SocketWrapperBase;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.util.ReflectionUtils;

/**
 * GOAWAY on Tomcat, through the graceful close its HTTP/2 connection uses when the connector pauses
 * (a GOAWAY with the highest stream id and {@code NO_ERROR}, later one with the last stream
 * processed), applied to each connection's processor, because pausing the connector would also stop
 * accepting connections during the drain delay. Open connections and a request's own connection are
 * read by reflection; should that fail, HTTP/2 connections get their GOAWAY when the connector
 * pauses, as without Lifecycle.
 */
@Internal
public final class TomcatHttp2Drain implements Http2Drain.Server, ApplicationListener<WebServerInitializedEvent> {

	private static final Log logger = LogFactory.getLog(TomcatHttp2Drain.class);

	private static final @Nullable Method GET_ENDPOINT = endpointAccessor();

	private static final String FACADE = "org.apache.catalina.connector.RequestFacade";

	private static final String COYOTE_REQUEST = "org.apache.coyote.Request";

	private static final String STREAM = "org.apache.coyote.http2.StreamProcessor";

	/** The servlet request's Tomcat request. */
	private static final @Nullable Field FACADE_REQUEST = field(FACADE, "request");

	/** What serves a Tomcat request: on HTTP/2, the processor of its stream. */
	private static final @Nullable Field STREAM_PROCESSOR = field(COYOTE_REQUEST, "hook");

	/** A stream's HTTP/2 connection. */
	private static final @Nullable Field CONNECTION = field(STREAM, "handler");

	private final List<Connector> connectors = new CopyOnWriteArrayList<>();

	TomcatHttp2Drain(Http2Drain drain) {
		drain.register(this);
	}

	@Override
	public void onApplicationEvent(WebServerInitializedEvent event) {
		if (event.getWebServer() instanceof TomcatWebServer server) {
			this.connectors.addAll(List.of(server.getTomcat().getService().findConnectors()));
		}
	}

	@Override
	public void goAwayAll() {
		for (Connector connector : this.connectors) {
			if (connector.getProtocolHandler() instanceof AbstractProtocol<?> protocol) {
				AbstractEndpoint<?, ?> endpoint = endpoint(protocol);
				if (endpoint != null) {
					for (SocketWrapperBase<?> connection : endpoint.getConnections()) {
						// Upgraded connections only: an HTTP/2 one sends its GOAWAY once (a WebSocket
						// one ignores pause()); an HTTP/1.1 connection has nothing to pause.
						if (connection.getCurrentProcessor() instanceof UpgradeProcessorInternal processor) {
							processor.pause();
						}
					}
				}
			}
		}
	}

	@Override
	public void goAway(Object request) {
		if (request instanceof HttpServletRequest servletRequest && servletRequest.getProtocol().startsWith("HTTP/2")) {
			// Tomcat lends a connection's processor to the thread reading its frames, so the
			// connection list misses a connection being read at this instant: the request's own
			// connection is reached through its stream instead. HTTP/2 requests are few once
			// clients have their GOAWAY, so every other connection is visited too (paused ones
			// again do nothing).
			InternalHttpUpgradeHandler connection = connectionOf(servletRequest);
			if (connection != null) {
				connection.pause();
			}
			goAwayAll();
		}
	}

	/** The HTTP/2 connection of a request, read from the stream Tomcat serves it on. */
	private static @Nullable InternalHttpUpgradeHandler connectionOf(ServletRequest request) {
		if (FACADE_REQUEST == null || STREAM_PROCESSOR == null || CONNECTION == null) {
			return null;
		}
		ServletRequest current = request;
		while (current instanceof ServletRequestWrapper wrapper) {
			current = wrapper.getRequest();
		}
		try {
			if (FACADE_REQUEST.getDeclaringClass().isInstance(current)
					&& FACADE_REQUEST.get(current) instanceof Request tomcat) {
				Object processor = STREAM_PROCESSOR.get(tomcat.getCoyoteRequest());
				if (CONNECTION.getDeclaringClass().isInstance(processor)
						&& CONNECTION.get(processor) instanceof InternalHttpUpgradeHandler connection) {
					return connection;
				}
			}
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Lifecycle: cannot reach the HTTP/2 connection of a request", ex);
		}
		return null;
	}

	private static @Nullable AbstractEndpoint<?, ?> endpoint(AbstractProtocol<?> protocol) {
		if (GET_ENDPOINT == null) {
			return null;
		}
		try {
			return (AbstractEndpoint<?, ?>) GET_ENDPOINT.invoke(protocol);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Lifecycle: cannot list Tomcat's connections", ex);
			return null;
		}
	}

	private static @Nullable Field field(String className, String name) {
		try {
			Field field = Class.forName(className, false, TomcatHttp2Drain.class.getClassLoader())
				.getDeclaredField(name);
			ReflectionUtils.makeAccessible(field);
			return field;
		}
		catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot read Tomcat's " + className + "." + name
					+ "; an HTTP/2 connection being read as its request arrives gets its GOAWAY later", ex);
			return null;
		}
	}

	private static @Nullable Method endpointAccessor() {
		try {
			Method method = AbstractProtocol.class.getDeclaredMethod("getEndpoint");
			ReflectionUtils.makeAccessible(method);
			return method;
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.warn("Lifecycle: cannot list Tomcat's connections; HTTP/2 clients get GOAWAY only when "
					+ "the web server stops (" + ex + ")");
			return null;
		}
	}

	/** Lets a native image read Tomcat's open connections. */
	public static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of("org.apache.coyote.AbstractProtocol"),
						(type) -> type.withMethod("getEndpoint", List.of(), ExecutableMode.INVOKE))
				.registerType(TypeReference.of(FACADE), (type) -> type.withField("request"))
				.registerType(TypeReference.of(COYOTE_REQUEST), (type) -> type.withField("hook"))
				.registerType(TypeReference.of(STREAM), (type) -> type.withField("handler"));
		}

	}

}
