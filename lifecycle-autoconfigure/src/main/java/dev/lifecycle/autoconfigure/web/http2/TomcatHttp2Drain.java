package dev.lifecycle.autoconfigure.web.http2;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.core.Internal;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
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

/**
 * GOAWAY on Tomcat, through the graceful close its HTTP/2 connection uses when the
 * connector pauses (a GOAWAY with the highest stream id and {@code NO_ERROR}, later one
 * with the last stream processed), applied to each connection's processor, because
 * pausing the connector would also stop accepting connections during the drain delay.
 * Open connections and a request's own connection are read by reflection; should that
 * fail, HTTP/2 connections get their GOAWAY when the connector pauses, as without
 * Lifecycle.
 */
@Internal
public final class TomcatHttp2Drain implements Http2Drain.Server, ApplicationListener<WebServerInitializedEvent> {

	private static final Log logger = LogFactory.getLog(TomcatHttp2Drain.class);

	static final InternalHooks.Point CONNECTIONS = new InternalHooks.Point("tomcat.connections",
			"Tomcat's AbstractProtocol.getEndpoint() (protected method)",
			"GOAWAY to Tomcat's open HTTP/2 connections at the first instant of a shutdown",
			"HTTP/2 clients on Tomcat get their GOAWAY only when the web server stops, and keep sending "
					+ "requests here during the drain. Use the Tomcat version Spring Boot manages (Tomcat 11.0).");

	static final InternalHooks.Point REQUEST_CONNECTION = new InternalHooks.Point("tomcat.request-connection",
			"Tomcat's RequestFacade.request, org.apache.coyote.Request.hook, StreamProcessor.handler (private fields)",
			"GOAWAY on the HTTP/2 connection of a request Tomcat is reading as the request arrives",
			"Such a connection gets its GOAWAY with the next request or when the web server stops. Use the "
					+ "Tomcat version Spring Boot manages (Tomcat 11.0).");

	private static final String FACADE = "org.apache.catalina.connector.RequestFacade";

	private static final String COYOTE_REQUEST = "org.apache.coyote.Request";

	/** Package-private in Tomcat. */
	private static final String STREAM = "org.apache.coyote.http2.StreamProcessor";

	/** {@code AbstractProtocol.getEndpoint()}; {@code null} when its hook missed. */
	private final @Nullable Method getEndpoint;

	/**
	 * The fields from a servlet request to its HTTP/2 connection; {@code null} when their
	 * hook missed.
	 */
	private final @Nullable RequestConnection requestConnection;

	private final List<Connector> connectors = new CopyOnWriteArrayList<>();

	TomcatHttp2Drain(Http2Drain drain, InternalHooks hooks) {
		this.getEndpoint = hooks.resolve(CONNECTIONS,
				() -> InternalHooks.method(AbstractProtocol.class, "getEndpoint", AbstractEndpoint.class));
		this.requestConnection = hooks.resolve(REQUEST_CONNECTION, () -> {
			ClassLoader loader = TomcatHttp2Drain.class.getClassLoader();
			return new RequestConnection(InternalHooks.field(RequestFacade.class, "request", Request.class),
					InternalHooks.field(org.apache.coyote.Request.class, "hook", Object.class), InternalHooks
						.field(Class.forName(STREAM, false, loader), "handler", InternalHttpUpgradeHandler.class));
		});
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
						// Upgraded connections only: an HTTP/2 one sends its GOAWAY once
						// (a WebSocket
						// one ignores pause()); an HTTP/1.1 connection has nothing to
						// pause.
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
			// Tomcat lends a connection's processor to the thread reading its frames, so
			// the connection list misses a connection being read at this instant: the
			// request's own connection is reached through its stream instead. HTTP/2
			// requests are few once clients have their GOAWAY, so every other connection
			// is visited too (paused ones again do nothing).
			InternalHttpUpgradeHandler connection = connectionOf(servletRequest);
			if (connection != null) {
				connection.pause();
			}
			goAwayAll();
		}
	}

	/** The HTTP/2 connection of a request, read from the stream Tomcat serves it on. */
	private @Nullable InternalHttpUpgradeHandler connectionOf(ServletRequest request) {
		RequestConnection fields = this.requestConnection;
		if (fields == null) {
			return null;
		}
		ServletRequest current = request;
		while (current instanceof ServletRequestWrapper wrapper) {
			current = wrapper.getRequest();
		}
		try {
			if (fields.facadeRequest().getDeclaringClass().isInstance(current)
					&& fields.facadeRequest().get(current) instanceof Request tomcat) {
				Object processor = fields.streamProcessor().get(tomcat.getCoyoteRequest());
				if (fields.connection().getDeclaringClass().isInstance(processor)
						&& fields.connection().get(processor) instanceof InternalHttpUpgradeHandler connection) {
					return connection;
				}
			}
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Lifecycle: cannot reach the HTTP/2 connection of a request", ex);
		}
		return null;
	}

	private @Nullable AbstractEndpoint<?, ?> endpoint(AbstractProtocol<?> protocol) {
		Method getEndpoint = this.getEndpoint;
		if (getEndpoint == null) {
			return null;
		}
		try {
			return (AbstractEndpoint<?, ?>) getEndpoint.invoke(protocol);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Lifecycle: cannot list Tomcat's connections", ex);
			return null;
		}
	}

	/**
	 * The fields from a servlet request to its HTTP/2 connection.
	 *
	 * @param facadeRequest the servlet request's Tomcat request
	 * @param streamProcessor what serves a Tomcat request: on HTTP/2, the processor of
	 * its stream
	 * @param connection a stream's HTTP/2 connection
	 */
	private record RequestConnection(Field facadeRequest, Field streamProcessor, Field connection) {
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
