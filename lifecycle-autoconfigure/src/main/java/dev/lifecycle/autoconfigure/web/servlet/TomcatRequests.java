package dev.lifecycle.autoconfigure.web.servlet;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

import dev.lifecycle.autoconfigure.InternalHooks;
import jakarta.servlet.ServletRequest;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.RequestFacade;
import org.apache.coyote.http11.Http11InputBuffer;
import org.apache.coyote.http11.filters.IdentityInputFilter;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.util.ReflectionUtils;

/**
 * Tomcat: the bytes its HTTP/1.1 input buffer holds past this request are the next ones.
 * A body read with a known length takes the whole buffer with it, the next requests
 * included, and Tomcat puts back what went past the body when the request ends: its
 * length filter's count of what is left of the body then goes below zero. The servlet
 * request's Tomcat request, the active filter and its count are read by reflection, as
 * Tomcat keeps them to itself: a hook resolved once, when the drain filter is created
 * ({@link PipelinedServletRequests#TOMCAT_HOOK}).
 */

final class TomcatRequests {

	private final Field facadeRequest;

	private final Field activeFilters;

	private final Field lastActiveFilter;

	private final Field bodyLeft;

	private TomcatRequests(Field facadeRequest, Field activeFilters, Field lastActiveFilter, Field bodyLeft) {
		this.facadeRequest = facadeRequest;
		this.activeFilters = activeFilters;
		this.lastActiveFilter = lastActiveFilter;
		this.bodyLeft = bodyLeft;
	}

	/**
	 * Resolves the hook into Tomcat's request and input buffer.
	 * @return the answer for Tomcat's requests, or {@code null} when the hook missed
	 */
	static @Nullable TomcatRequests resolve(InternalHooks hooks) {
		return resolve(hooks, RequestFacade.class, Http11InputBuffer.class, IdentityInputFilter.class);
	}

	/**
	 * Resolves the hook against the given types: Tomcat's own, or in a test one that
	 * lacks a field.
	 */
	static @Nullable TomcatRequests resolve(InternalHooks hooks, Class<?> facade, Class<?> input, Class<?> length) {
		return hooks.resolve(PipelinedServletRequests.TOMCAT_HOOK,
				() -> new TomcatRequests(InternalHooks.field(facade, "request", Request.class),
						InternalHooks.field(input, "activeFilters", Object[].class),
						InternalHooks.field(input, "lastActiveFilter", int.class),
						InternalHooks.field(length, "remaining", long.class)));
	}

	boolean pipelined(ServletRequest request) {
		if (!(request instanceof RequestFacade)) {
			return false;
		}
		if (ReflectionUtils.getField(this.facadeRequest, request) instanceof Request tomcat
				&& tomcat.getCoyoteRequest().getInputBuffer() instanceof Http11InputBuffer input) {
			ByteBuffer buffer = input.getByteBuffer();
			long buffered = (buffer != null) ? buffer.remaining() : 0;
			IdentityInputFilter body = lengthFilter(input);
			if (body != null && ReflectionUtils.getField(this.bodyLeft, body) instanceof Long left) {
				// Below zero: it took bytes past its body. Above: the buffer may still
				// hold the body.
				return left < 0 || buffered > left;
			}
			return buffered > 0;
		}
		return false;
	}

	private @Nullable IdentityInputFilter lengthFilter(Http11InputBuffer input) {
		if (!(ReflectionUtils.getField(this.lastActiveFilter, input) instanceof Integer last) || last < 0
				|| !(ReflectionUtils.getField(this.activeFilters, input) instanceof Object[] filters)
				|| last >= filters.length) {
			return null;
		}
		return (filters[last] instanceof IdentityInputFilter identity) ? identity : null;
	}

	/** The fields read by reflection, for a native image. */
	public static final class Hints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
			hints.reflection()
				.registerType(TypeReference.of("org.apache.catalina.connector.RequestFacade"),
						(type) -> type.withField("request"))
				.registerType(TypeReference.of("org.apache.coyote.http11.Http11InputBuffer"),
						(type) -> type.withField("activeFilters").withField("lastActiveFilter"))
				.registerType(TypeReference.of("org.apache.coyote.http11.filters.IdentityInputFilter"),
						(type) -> type.withField("remaining"));
		}

	}

}
