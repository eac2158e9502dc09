package dev.lifecycle.autoconfigure.web.servlet;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * How many bytes a text takes in a charset, never fewer than it does: exact for UTF-8 and
 * the single-byte charsets (what almost every response is written in), the charset's most
 * bytes a character for the others. Counting fewer would let a server commit a response
 * before its framing is decided; counting more only decides it a little early.
 */
final class TextBytes {

	/**
	 * What a character may take in a charset a server does not know, or in any charset.
	 */
	private static final int MOST = 4;

	private final @Nullable Charset charset;

	private final int perChar;

	private final boolean utf8;

	private TextBytes(@Nullable Charset charset) {
		this.charset = charset;
		this.utf8 = StandardCharsets.UTF_8.equals(charset);
		this.perChar = (charset != null) ? (int) Math.ceil(charset.newEncoder().maxBytesPerChar()) : MOST;
	}

	/**
	 * The counting for a response's character encoding.
	 * @param encoding the encoding's name as the response gives it; {@code null} is the
	 * servlet default, ISO-8859-1
	 * @return its counting
	 */
	static TextBytes of(@Nullable String encoding) {
		Charset charset;
		try {
			charset = Charset.forName((encoding != null) ? encoding : "ISO-8859-1");
		}
		catch (RuntimeException ex) {
			charset = null;
		}
		return new TextBytes(charset);
	}

	/** Whether this counts {@code encoding}, so that it can be kept across writes. */
	boolean counts(@Nullable String encoding) {
		return (this.charset != null)
				&& this.charset.name().equalsIgnoreCase((encoding != null) ? encoding : "ISO-8859-1");
	}

	/** The most bytes {@code characters} characters take in any charset. */
	static long atMostInAnyCharset(long characters) {
		return characters * MOST;
	}

	/** The most bytes any {@code characters} characters take. */
	long atMost(long characters) {
		return characters * this.perChar;
	}

	/**
	 * The bytes {@code len} characters of {@code text} from {@code off} take, or more.
	 */
	long of(CharSequence text, int off, int len) {
		if (!this.utf8) {
			return atMost(len);
		}
		long bytes = 0;
		for (int i = off; i < off + len; i++) {
			char c = text.charAt(i);
			// Each half of a surrogate pair counts 2: 4 for the pair, more than the 1
			// byte a lone half is replaced with.
			bytes += (c < 0x80) ? 1 : (c < 0x800 || Character.isSurrogate(c)) ? 2 : 3;
		}
		return bytes;
	}

}
