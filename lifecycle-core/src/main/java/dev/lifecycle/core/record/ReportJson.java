package dev.lifecycle.core.record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lifecycle.core.Internal;
import org.jspecify.annotations.Nullable;

/**
 * The little JSON the shutdown report needs, so the engine keeps depending on the JDK
 * alone: writes maps, lists, strings, numbers, booleans and nulls; reads them back into
 * the same types (numbers as {@link Long} or {@link Double}). Not a general-purpose
 * parser: it rejects anything malformed, cut short or nested deeper than a report ever is
 * with an {@link IllegalArgumentException}, and never fails in any other way.
 */
@Internal
public final class ReportJson {

	/**
	 * Deeper than any report nests; deeper input is rejected rather than risking the
	 * stack.
	 */
	static final int MAX_DEPTH = 16;

	private ReportJson() {
	}

	public static String write(@Nullable Object value) {
		StringBuilder out = new StringBuilder(256);
		write(out, value, 0);
		return out.append('\n').toString();
	}

	private static void write(StringBuilder out, @Nullable Object value, int depth) {
		if (value == null) {
			out.append("null");
		}
		else if (value instanceof String string) {
			string(out, string);
		}
		else if (value instanceof Number || value instanceof Boolean) {
			out.append(value);
		}
		else if (value instanceof Map<?, ?> map) {
			out.append('{');
			boolean first = true;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				out.append(first ? "" : ",").append('\n').append("  ".repeat(depth + 1));
				string(out, String.valueOf(entry.getKey()));
				out.append(": ");
				write(out, entry.getValue(), depth + 1);
				first = false;
			}
			out.append(first ? "" : "\n" + "  ".repeat(depth)).append('}');
		}
		else if (value instanceof List<?> list) {
			out.append('[');
			for (int i = 0; i < list.size(); i++) {
				out.append((i > 0) ? ", " : "");
				write(out, list.get(i), depth + 1);
			}
			out.append(']');
		}
		else {
			string(out, value.toString());
		}
	}

	private static void string(StringBuilder out, String value) {
		out.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				case '\n' -> out.append("\\n");
				case '\r' -> out.append("\\r");
				case '\t' -> out.append("\\t");
				default -> {
					if (c < 0x20 || Character.isSurrogate(c)) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		out.append('"');
	}

	public static @Nullable Object parse(String text) {
		Parser parser = new Parser(text);
		Object value = parser.value(0);
		parser.skipSpace();
		if (parser.position != text.length()) {
			throw parser.error("trailing characters");
		}
		return value;
	}

	/**
	 * The string value of a top-level object's first member when it has this name,
	 * whatever the whitespace; {@code null} for anything else, including text cut short
	 * after that member.
	 */
	public static @Nullable String firstMember(String text, String name) {
		try {
			Parser parser = new Parser(text);
			parser.skipSpace();
			parser.expect('{');
			parser.skipSpace();
			if (!name.equals(parser.string())) {
				return null;
			}
			parser.skipSpace();
			parser.expect(':');
			parser.skipSpace();
			return (parser.peek() == '"') ? parser.string() : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		@Nullable Object value(int depth) {
			skipSpace();
			if (this.position >= this.text.length()) {
				throw error("unexpected end");
			}
			if (depth > MAX_DEPTH) {
				throw error("nested too deep");
			}
			char c = this.text.charAt(this.position);
			return switch (c) {
				case '{' -> object(depth);
				case '[' -> array(depth);
				case '"' -> string();
				case 't' -> literal("true", Boolean.TRUE);
				case 'f' -> literal("false", Boolean.FALSE);
				case 'n' -> literal("null", null);
				default -> number();
			};
		}

		private Map<String, @Nullable Object> object(int depth) {
			Map<String, @Nullable Object> map = new LinkedHashMap<>();
			this.position++;
			skipSpace();
			if (peek() == '}') {
				this.position++;
				return map;
			}
			while (true) {
				skipSpace();
				String key = string();
				skipSpace();
				expect(':');
				map.put(key, value(depth + 1));
				skipSpace();
				if (peek() == ',') {
					this.position++;
					continue;
				}
				expect('}');
				return map;
			}
		}

		private List<@Nullable Object> array(int depth) {
			List<@Nullable Object> list = new ArrayList<>();
			this.position++;
			skipSpace();
			if (peek() == ']') {
				this.position++;
				return list;
			}
			while (true) {
				list.add(value(depth + 1));
				skipSpace();
				if (peek() == ',') {
					this.position++;
					continue;
				}
				expect(']');
				return list;
			}
		}

		String string() {
			expect('"');
			StringBuilder out = new StringBuilder();
			while (true) {
				if (this.position >= this.text.length()) {
					throw error("unterminated string");
				}
				char c = this.text.charAt(this.position++);
				if (c == '"') {
					return out.toString();
				}
				if (c != '\\') {
					out.append(c);
					continue;
				}
				if (this.position >= this.text.length()) {
					throw error("unterminated escape");
				}
				char escaped = this.text.charAt(this.position++);
				switch (escaped) {
					case 'n' -> out.append('\n');
					case 'r' -> out.append('\r');
					case 't' -> out.append('\t');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					case 'u' -> out.append(unicode());
					case '"', '\\', '/' -> out.append(escaped);
					default -> throw error("bad escape");
				}
			}
		}

		private char unicode() {
			int value = 0;
			for (int i = 0; i < 4; i++) {
				int digit = (this.position < this.text.length()) ? Character.digit(this.text.charAt(this.position), 16)
						: -1;
				if (digit < 0) {
					throw error("bad unicode escape");
				}
				value = value * 16 + digit;
				this.position++;
			}
			return (char) value;
		}

		private Number number() {
			int start = this.position;
			while (this.position < this.text.length()
					&& "+-0123456789.eE".indexOf(this.text.charAt(this.position)) >= 0) {
				this.position++;
			}
			String number = this.text.substring(start, this.position);
			if (number.isEmpty()) {
				throw error("unexpected character");
			}
			try {
				if (number.contains(".") || number.contains("e") || number.contains("E")) {
					return Double.valueOf(number);
				}
				return Long.valueOf(number);
			}
			catch (NumberFormatException ex) {
				throw error("bad number '" + number + "'");
			}
		}

		private @Nullable Object literal(String word, @Nullable Object value) {
			if (!this.text.startsWith(word, this.position)) {
				throw error("unexpected word");
			}
			this.position += word.length();
			return value;
		}

		char peek() {
			return (this.position < this.text.length()) ? this.text.charAt(this.position) : '\0';
		}

		void expect(char c) {
			if (peek() != c) {
				throw error("expected '" + c + "'");
			}
			this.position++;
		}

		void skipSpace() {
			while (this.position < this.text.length() && Character.isWhitespace(this.text.charAt(this.position))) {
				this.position++;
			}
		}

		IllegalArgumentException error(String problem) {
			return new IllegalArgumentException("Malformed JSON at offset " + this.position + ": " + problem);
		}

	}

}
