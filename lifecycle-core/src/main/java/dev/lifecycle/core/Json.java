package dev.lifecycle.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The little JSON the shutdown report needs, so the engine keeps depending on the JDK alone:
 * writes maps, lists, strings, numbers, booleans and nulls; reads them back into the same types
 * (numbers as {@link Long} or {@link Double}). Not a general-purpose parser: it rejects anything
 * malformed with an {@link IllegalArgumentException}.
 */
final class Json {

	private Json() {
	}

	static String write(@Nullable Object value) {
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

	static @Nullable Object parse(String text) {
		Parser parser = new Parser(text);
		Object value = parser.value();
		parser.skipSpace();
		if (parser.position != text.length()) {
			throw parser.error("trailing characters");
		}
		return value;
	}

	private static final class Parser {

		private final String text;

		private int position;

		Parser(String text) {
			this.text = text;
		}

		@Nullable Object value() {
			skipSpace();
			if (this.position >= this.text.length()) {
				throw error("unexpected end");
			}
			char c = this.text.charAt(this.position);
			return switch (c) {
				case '{' -> object();
				case '[' -> array();
				case '"' -> string();
				case 't' -> literal("true", Boolean.TRUE);
				case 'f' -> literal("false", Boolean.FALSE);
				case 'n' -> literal("null", null);
				default -> number();
			};
		}

		private Map<String, @Nullable Object> object() {
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
				map.put(key, value());
				skipSpace();
				if (peek() == ',') {
					this.position++;
					continue;
				}
				expect('}');
				return map;
			}
		}

		private List<@Nullable Object> array() {
			List<@Nullable Object> list = new ArrayList<>();
			this.position++;
			skipSpace();
			if (peek() == ']') {
				this.position++;
				return list;
			}
			while (true) {
				list.add(value());
				skipSpace();
				if (peek() == ',') {
					this.position++;
					continue;
				}
				expect(']');
				return list;
			}
		}

		private String string() {
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
				char escaped = this.text.charAt(this.position++);
				switch (escaped) {
					case 'n' -> out.append('\n');
					case 'r' -> out.append('\r');
					case 't' -> out.append('\t');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					case 'u' -> {
						out.append((char) Integer.parseInt(this.text.substring(this.position, this.position + 4), 16));
						this.position += 4;
					}
					default -> out.append(escaped);
				}
			}
		}

		private Number number() {
			int start = this.position;
			while (this.position < this.text.length() && "+-0123456789.eE".indexOf(this.text.charAt(this.position)) >= 0) {
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

		private char peek() {
			return (this.position < this.text.length()) ? this.text.charAt(this.position) : '\0';
		}

		private void expect(char c) {
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
