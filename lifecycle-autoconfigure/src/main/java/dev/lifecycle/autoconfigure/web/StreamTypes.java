package dev.lifecycle.autoconfigure.web;

import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;

/**
 * Which responses are long-lived streams, the same on every web stack: those of a
 * streaming media type, server-sent events ({@code text/event-stream}) and NDJSON
 * ({@code application/x-ndjson}). They end with the streams ({@link StreamDrain}). Any
 * other body, however long, is work: it is waited for within the web server's graceful
 * budget, like a request. Every response is asked, so the header is compared as text,
 * never parsed.
 */
@Internal
public final class StreamTypes {

	private static final String EVENT_STREAM = "text/event-stream";

	private static final String NDJSON = "application/x-ndjson";

	private StreamTypes() {
	}

	/** Whether a {@code Content-Type} value names a streaming media type. */
	public static boolean isStream(@Nullable String contentType) {
		return contentType != null
				&& (startsWithType(contentType, EVENT_STREAM) || startsWithType(contentType, NDJSON));
	}

	/** Whether a {@code Content-Type} value names server-sent events. */
	public static boolean isEventStream(@Nullable String contentType) {
		return contentType != null && startsWithType(contentType, EVENT_STREAM);
	}

	/**
	 * Whether the header names the type, with or without parameters, in any letter case.
	 */
	private static boolean startsWithType(String header, String type) {
		String value = header.stripLeading();
		return value.regionMatches(true, 0, type, 0, type.length()) && (value.length() == type.length()
				|| value.charAt(type.length()) == ';' || Character.isWhitespace(value.charAt(type.length())));
	}

}
