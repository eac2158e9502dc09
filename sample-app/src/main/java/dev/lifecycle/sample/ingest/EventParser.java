package dev.lifecycle.sample.ingest;

import java.util.Set;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Parses and validates a {@code POST /events} body strictly. The rules (each violation is
 * a 400 with the reason):
 * <ul>
 * <li>the body is one JSON object with exactly the fields {@code id}, {@code key},
 * {@code value}; no duplicate or unknown fields, nothing after the object;</li>
 * <li>{@code id}: a string of 1 to {@value #MAX_ID_LENGTH} characters, not blank, no
 * control characters, valid Unicode (no unpaired surrogate, which has no UTF-8 form and
 * would be stored as another id);</li>
 * <li>{@code key}: a string of 1 to {@value #MAX_KEY_LENGTH} characters from
 * {@code A-Z a-z 0-9 . _ : -} (so that {@code GET /counts/{key}} needs no escaping);</li>
 * <li>{@code value}: a JSON integer (not {@code 1.0}, not {@code "1"}) between
 * -{@value #MAX_ABS_VALUE} and {@value #MAX_ABS_VALUE} inclusive (sums are exact at any
 * size, so the bound is about sane input, not overflow).</li>
 * </ul>
 */
public final class EventParser {

	/** The longest event id, in characters. */
	public static final int MAX_ID_LENGTH = 128;

	/** The longest key, in characters. */
	public static final int MAX_KEY_LENGTH = 256;

	/** The largest absolute value. */
	public static final long MAX_ABS_VALUE = 1_000_000_000L;

	private static final Set<String> FIELDS = Set.of("id", "key", "value");

	private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._:\\-]+");

	private final JsonMapper mapper = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	/**
	 * Parses a body.
	 * @param body the raw bytes (already bounded by the size limit)
	 * @return the event
	 * @throws InvalidEventException with the reason if the body is not a valid event
	 */
	public IncomingEvent parse(byte[] body) throws InvalidEventException {
		if (body.length == 0) {
			throw new InvalidEventException("request body is empty; expected a JSON object with id, key and value");
		}
		JsonNode root;
		try {
			root = this.mapper.readTree(body);
		}
		catch (JacksonException ex) {
			throw new InvalidEventException("malformed JSON: " + describe(ex));
		}
		if (root == null || root.isMissingNode()) {
			throw new InvalidEventException("request body is empty; expected a JSON object with id, key and value");
		}
		if (!root.isObject()) {
			throw new InvalidEventException("body must be a JSON object with id, key and value, not "
					+ root.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
		}
		for (String name : root.propertyNames()) {
			if (!FIELDS.contains(name)) {
				throw new InvalidEventException(
						"unknown field '" + truncate(name) + "'; allowed fields are id, key, value");
			}
		}
		String id = string(root, "id", MAX_ID_LENGTH);
		checkId(id);
		String key = string(root, "key", MAX_KEY_LENGTH);
		checkKey(key);
		long value = value(root);
		return new IncomingEvent(id, key, value);
	}

	/**
	 * The same rules for an event whose fields arrived already typed (the gRPC service),
	 * in the same order and with the same messages as {@link #parse(byte[])}.
	 * @param id the event id
	 * @param key the key
	 * @param value the value
	 * @return the event
	 * @throws InvalidEventException if a field breaks its rule; the message says which
	 * and why
	 */
	public IncomingEvent event(String id, String key, long value) throws InvalidEventException {
		checkText("id", id, MAX_ID_LENGTH);
		checkId(id);
		checkText("key", key, MAX_KEY_LENGTH);
		checkKey(key);
		checkRange(value);
		return new IncomingEvent(id, key, value);
	}

	private static void checkId(String id) throws InvalidEventException {
		if (id.isBlank()) {
			throw new InvalidEventException("field 'id' must not be blank");
		}
		if (id.chars().anyMatch(Character::isISOControl)) {
			throw new InvalidEventException("field 'id' must not contain control characters");
		}
	}

	private static void checkKey(String key) throws InvalidEventException {
		if (!KEY.matcher(key).matches()) {
			throw new InvalidEventException("field 'key' may only contain letters, digits and . _ : -");
		}
	}

	private static String string(JsonNode root, String field, int maxLength) throws InvalidEventException {
		JsonNode node = root.get(field);
		if (node == null) {
			throw new InvalidEventException("field '" + field + "' is missing");
		}
		if (!node.isString()) {
			throw new InvalidEventException("field '" + field + "' must be a string, not " + type(node));
		}
		String text = node.stringValue();
		checkText(field, text, maxLength);
		return text;
	}

	private static void checkText(String field, String text, int maxLength) throws InvalidEventException {
		checkWellFormed(field, text);
		if (text.isEmpty()) {
			throw new InvalidEventException("field '" + field + "' must not be empty");
		}
		if (text.length() > maxLength) {
			throw new InvalidEventException(
					"field '" + field + "' is " + text.length() + " characters long; the limit is " + maxLength);
		}
	}

	/**
	 * Refuses text that is not valid Unicode: a lone surrogate (JSON lets
	 * {@code "\\ud800"} through) has no UTF-8 form, so the database would store a
	 * replacement character instead, and two different ids could become one.
	 */
	private static void checkWellFormed(String field, String text) throws InvalidEventException {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new InvalidEventException("field '" + field + "' is not valid Unicode text: it has an unpaired "
						+ "surrogate (\\u" + Integer.toHexString(c) + ") at character " + i);
			}
		}
	}

	private static long value(JsonNode root) throws InvalidEventException {
		JsonNode node = root.get("value");
		if (node == null) {
			throw new InvalidEventException("field 'value' is missing");
		}
		if (!node.isIntegralNumber()) {
			throw new InvalidEventException("field 'value' must be an integer, not " + type(node));
		}
		if (!node.canConvertToLong()) {
			throw outOfRange();
		}
		checkRange(node.longValue());
		return node.longValue();
	}

	private static void checkRange(long value) throws InvalidEventException {
		// A range check, not Math.abs: Math.abs(Long.MIN_VALUE) is negative and would
		// pass.
		if (value < -MAX_ABS_VALUE || value > MAX_ABS_VALUE) {
			throw outOfRange();
		}
	}

	private static InvalidEventException outOfRange() {
		return new InvalidEventException(
				"field 'value' is out of range; it must be between -" + MAX_ABS_VALUE + " and " + MAX_ABS_VALUE);
	}

	private static String type(JsonNode node) {
		if (node.isNumber()) {
			return node.isIntegralNumber() ? "an integer" : "a decimal number";
		}
		return switch (node.getNodeType()) {
			case STRING -> "a string";
			case BOOLEAN -> "a boolean";
			case NULL -> "null";
			case ARRAY -> "an array";
			case OBJECT -> "an object";
			default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
		};
	}

	private static String describe(JacksonException ex) {
		String message = ex.getOriginalMessage();
		if (message != null) {
			int newline = message.indexOf('\n');
			if (newline >= 0) {
				message = message.substring(0, newline);
			}
		}
		TokenStreamLocation location = ex.getLocation();
		if (location != null && location.getLineNr() > 0) {
			return truncate(message) + " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
		}
		return truncate(message);
	}

	private static String truncate(String text) {
		if (text == null) {
			return "unknown error";
		}
		return (text.length() > 200) ? text.substring(0, 200) + "…" : text;
	}

}
