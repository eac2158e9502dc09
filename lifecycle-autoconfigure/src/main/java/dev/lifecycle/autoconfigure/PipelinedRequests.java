package dev.lifecycle.autoconfigure;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.Collection;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.coyote.http11.Http11InputBuffer;
import org.apache.coyote.http11.filters.IdentityInputFilter;
import org.eclipse.jetty.ee11.servlet.ServletContextRequest;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.jspecify.annotations.Nullable;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelPipeline;
import reactor.netty.Connection;
import reactor.netty.NettyPipeline;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Whether the web server has already read another request on this one's connection. A server must
 * not process a request that follows {@code Connection: close}, so the drain says {@code close} only
 * on the last request of a pipeline and every request before it is served. Jetty answers through
 * public types, Tomcat and Reactor Netty through fields read by reflection. Where the answer cannot
 * be had it is {@code false}: the connection closes after this response, as without pipelining.
 */
final class PipelinedRequests {

	private static final Log logger = LogFactory.getLog(PipelinedRequests.class);

	private static final ClassLoader LOADER = PipelinedRequests.class.getClassLoader();

	private static final boolean TOMCAT = ClassUtils.isPresent("org.apache.catalina.connector.RequestFacade", LOADER)
			&& ClassUtils.isPresent("org.apache.coyote.http11.Http11InputBuffer", LOADER);

	private static final boolean JETTY = ClassUtils.isPresent("org.eclipse.jetty.ee11.servlet.ServletContextRequest",
			LOADER) && ClassUtils.isPresent("org.eclipse.jetty.server.internal.HttpConnection", LOADER);

	private static final boolean NETTY = ClassUtils.isPresent("reactor.netty.NettyPipeline", LOADER);

	private PipelinedRequests() {
	}

	/**
	 * Whether another request already follows this one on its connection.
	 * @param request the servlet request, or the native request of Reactor Netty
	 * @return {@code true} only when the server is known to hold a further request
	 */
	static boolean follow(Object request) {
		try {
			if (request instanceof ServletRequest servletRequest) {
				ServletRequest current = servletRequest;
				while (current instanceof ServletRequestWrapper wrapper) {
					current = wrapper.getRequest();
				}
				return (TOMCAT && Tomcat.follow(current)) || (JETTY && Jetty.follow(servletRequest));
			}
			return NETTY && Netty.follow(request);
		}
		catch (RuntimeException | LinkageError ex) {
			logger.debug("Lifecycle: cannot tell whether requests are pipelined after this one", ex);
			return false;
		}
	}

	/**
	 * Tomcat: the bytes its HTTP/1.1 input buffer holds past this request are the next ones. A body
	 * read with a known length takes the whole buffer with it, the next requests included, and
	 * Tomcat puts back what went past the body when the request ends: its length filter's count
	 * of what is left of the body then goes below zero. The servlet request's Tomcat request, the
	 * active filter and its count are read by reflection, as Tomcat keeps them to itself.
	 */
	private static final class Tomcat {

		private static final @Nullable Field FACADE_REQUEST = field(RequestFacade.class, "request");

		private static final @Nullable Field ACTIVE_FILTERS = field(Http11InputBuffer.class, "activeFilters");

		private static final @Nullable Field LAST_ACTIVE_FILTER = field(Http11InputBuffer.class, "lastActiveFilter");

		private static final @Nullable Field BODY_LEFT = field(IdentityInputFilter.class, "remaining");

		static boolean follow(ServletRequest request) {
			if (FACADE_REQUEST == null || !(request instanceof RequestFacade)) {
				return false;
			}
			if (ReflectionUtils.getField(FACADE_REQUEST, request) instanceof Request tomcat
					&& tomcat.getCoyoteRequest().getInputBuffer() instanceof Http11InputBuffer input) {
				ByteBuffer buffer = input.getByteBuffer();
				long buffered = (buffer != null) ? buffer.remaining() : 0;
				IdentityInputFilter body = lengthFilter(input);
				if (body != null && BODY_LEFT != null && ReflectionUtils.getField(BODY_LEFT, body) instanceof Long left) {
					// Below zero: it took bytes past its body. Above: the buffer may still hold the body.
					return left < 0 || buffered > left;
				}
				return buffered > 0;
			}
			return false;
		}

		private static @Nullable IdentityInputFilter lengthFilter(Http11InputBuffer input) {
			if (ACTIVE_FILTERS == null || LAST_ACTIVE_FILTER == null
					|| !(ReflectionUtils.getField(LAST_ACTIVE_FILTER, input) instanceof Integer last) || last < 0
					|| !(ReflectionUtils.getField(ACTIVE_FILTERS, input) instanceof Object[] filters)
					|| last >= filters.length) {
				return null;
			}
			return (filters[last] instanceof IdentityInputFilter identity) ? identity : null;
		}

		private static @Nullable Field field(Class<?> type, String name) {
			Field field = ReflectionUtils.findField(type, name);
			if (field != null) {
				ReflectionUtils.makeAccessible(field);
			}
			return field;
		}

	}

	/** Jetty: its HTTP/1.1 connection says whether its request buffer holds more. */
	private static final class Jetty {

		static boolean follow(ServletRequest request) {
			ServletContextRequest jetty = ServletContextRequest.getServletContextRequest(request);
			return jetty != null && jetty.getConnectionMetaData().getConnection() instanceof HttpConnection connection
					&& !connection.isRequestBufferEmpty();
		}

	}

	/**
	 * Reactor Netty: a request that follows is either still undecoded in its HTTP codec's input
	 * (Netty hands each request on as it decodes it, so the next ones wait there while this one is
	 * answered on the same thread) or decoded and queued in its traffic handler.
	 */
	private static final class Netty {

		private static final @Nullable Field PIPELINED = field("reactor.netty.http.server.HttpTrafficHandler",
				"pipelined");

		private static final @Nullable Field INBOUND = field("io.netty.channel.CombinedChannelDuplexHandler",
				"inboundHandler");

		private static final @Nullable Field CUMULATION = field("io.netty.handler.codec.ByteToMessageDecoder",
				"cumulation");

		static boolean follow(Object request) {
			if (!(request instanceof Connection connection)) {
				return false;
			}
			ChannelPipeline pipeline = connection.channel().pipeline();
			return undecoded(pipeline.get(NettyPipeline.HttpCodec)) || queued(pipeline.get(NettyPipeline.HttpTrafficHandler));
		}

		private static boolean undecoded(@Nullable Object codec) {
			if (INBOUND == null || CUMULATION == null || !INBOUND.getDeclaringClass().isInstance(codec)) {
				return false;
			}
			Object decoder = ReflectionUtils.getField(INBOUND, codec);
			return CUMULATION.getDeclaringClass().isInstance(decoder)
					&& ReflectionUtils.getField(CUMULATION, decoder) instanceof ByteBuf input && input.isReadable();
		}

		private static boolean queued(@Nullable Object handler) {
			return PIPELINED != null && PIPELINED.getDeclaringClass().isInstance(handler)
					&& ReflectionUtils.getField(PIPELINED, handler) instanceof Collection<?> queued && !queued.isEmpty();
		}

		private static @Nullable Field field(String type, String name) {
			try {
				Field field = ReflectionUtils.findField(ClassUtils.forName(type, LOADER), name);
				if (field != null) {
					ReflectionUtils.makeAccessible(field);
				}
				return field;
			}
			catch (ClassNotFoundException | LinkageError | RuntimeException ex) {
				return null;
			}
		}

	}

	/** The fields read by reflection, for a native image. */
	static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of("org.apache.catalina.connector.RequestFacade"),
						(type) -> type.withField("request"))
				.registerType(TypeReference.of("org.apache.coyote.http11.Http11InputBuffer"),
						(type) -> type.withField("activeFilters").withField("lastActiveFilter"))
				.registerType(TypeReference.of("org.apache.coyote.http11.filters.IdentityInputFilter"),
						(type) -> type.withField("remaining"))
				.registerType(TypeReference.of("reactor.netty.http.server.HttpTrafficHandler"),
						(type) -> type.withField("pipelined"))
				.registerType(TypeReference.of("io.netty.channel.CombinedChannelDuplexHandler"),
						(type) -> type.withField("inboundHandler"))
				.registerType(TypeReference.of("io.netty.handler.codec.ByteToMessageDecoder"),
						(type) -> type.withField("cumulation"));
		}

	}

}
