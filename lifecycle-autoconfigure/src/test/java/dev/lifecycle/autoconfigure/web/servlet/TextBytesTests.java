package dev.lifecycle.autoconfigure.web.servlet;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bytes a text is counted as never fall short of what the server's encoder writes.
 */
class TextBytesTests {

	private static final String TEXT = "h\u00e9llo \u20ac \uD83D\uDE00";

	@Test
	void utf8IsCountedExactly() {
		assertThat(TextBytes.of("UTF-8").of(TEXT, 0, TEXT.length()))
			.isEqualTo(TEXT.getBytes(StandardCharsets.UTF_8).length);
		assertThat(TextBytes.of("utf-8").of(TEXT, 2, 3)).isEqualTo(3);
	}

	@Test
	void aLoneHalfOfASurrogatePairIsCountedAtLeastAsWhatReplacesIt() {
		String lone = "\uD83D";
		assertThat(TextBytes.of("UTF-8").of(lone, 0, 1))
			.isGreaterThanOrEqualTo(lone.getBytes(StandardCharsets.UTF_8).length);
	}

	@Test
	void aSingleByteCharsetCountsACharacterAsOneByteAndTheServletDefaultIsOne() {
		assertThat(TextBytes.of("ISO-8859-1").of(TEXT, 0, TEXT.length())).isEqualTo(TEXT.length());
		assertThat(TextBytes.of(null).atMost(10)).isEqualTo(10);
	}

	@Test
	void otherCharsetsCountTheirMostBytesPerCharacterAndAnUnknownOneFour() {
		assertThat(TextBytes.of("UTF-16").of(TEXT, 0, TEXT.length()))
			.isGreaterThanOrEqualTo(TEXT.getBytes(StandardCharsets.UTF_16).length);
		assertThat(TextBytes.of("no-such-charset").atMost(3)).isEqualTo(12);
		assertThat(TextBytes.of("no-such-charset").counts("no-such-charset")).isFalse();
	}

}
