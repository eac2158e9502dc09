package dev.lifecycle.autoconfigure.web.servlet;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;

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
 * Tomcat: the bytes its HTTP/1.1 input buffer holds past this request are the next ones. A body
 * read with a known length takes the whole buffer with it, the next requests included, and
 * Tomcat puts back what went past the body when the request ends: its length filter's count
 * of what is left of the body then goes below zero. The servlet request's Tomcat request, the
 * active filter and its count are read by reflection, as Tomcat keeps them to itself.
 */

final class TomcatRequests {

	private TomcatRequests() {
	}


	private static final @Nullable Field FACADE_REQUEST = field(RequestFacade.class, "request");

	private static final @Nullable Field ACTIVE_FILTERS = field(Http11InputBuffer.class, "activeFilters");

	private static final @Nullable Field LAST_ACTIVE_FILTER = field(Http11InputBuffer.class, "lastActiveFilter");

	private static final @Nullable Field BODY_LEFT = field(IdentityInputFilter.class, "remaining");

	static boolean pipelined(ServletRequest request) {
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
