package dev.lifecycle.sample.ingest;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class EventParserTest {

	private final EventParser parser = new EventParser();

	private IncomingEvent parse(String json) throws InvalidEventException {
		return this.parser.parse(json.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void acceptsAWellFormedEvent() throws InvalidEventException {
		assertThat(parse("{\"id\":\"e-1\",\"key\":\"orders.eu:1\",\"value\":-42}"))
			.isEqualTo(new IncomingEvent("e-1", "orders.eu:1", -42));
	}

	@Test
	void acceptsIdsWithCharactersBeyondTheBasicPlane() throws InvalidEventException {
		// A surrogate pair (here U+1F600, escaped in JSON) is valid Unicode.
		assertThat(parse("{\"id\":\"smile-\\ud83d\\ude00\",\"key\":\"k\",\"value\":1}").id())
			.isEqualTo("smile-" + new String(Character.toChars(0x1F600)));
	}

	@Test
	void acceptsLimitsExactly() throws InvalidEventException {
		String id = "i".repeat(EventParser.MAX_ID_LENGTH);
		String key = "k".repeat(EventParser.MAX_KEY_LENGTH);
		assertThat(parse("{\"id\":\"" + id + "\",\"key\":\"" + key + "\",\"value\":1000000000}").value())
			.isEqualTo(1_000_000_000L);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '`',
			textBlock = """
					empty body                  | ``                                                   | empty
					malformed JSON              | {"id":"a","key":"k","value":1                        | malformed JSON
					not JSON at all             | hello                                                | malformed JSON
					trailing garbage            | {"id":"a","key":"k","value":1} x                     | malformed JSON
					duplicate field             | {"id":"a","id":"b","key":"k","value":1}              | malformed JSON
					array body                  | [1,2]                                                | JSON object
					string body                 | `"x"`                                                | JSON object
					missing id                  | {"key":"k","value":1}                                | 'id' is missing
					missing key                 | {"id":"a","value":1}                                 | 'key' is missing
					missing value               | {"id":"a","key":"k"}                                 | 'value' is missing
					null id                     | {"id":null,"key":"k","value":1}                      | 'id' must be a string, not null
					numeric id                  | {"id":7,"key":"k","value":1}                         | 'id' must be a string, not an integer
					blank id                    | {"id":"  ","key":"k","value":1}                      | 'id' must not be blank
					empty key                   | {"id":"a","key":"","value":1}                        | 'key' must not be empty
					key with slash              | {"id":"a","key":"a/b","value":1}                     | may only contain
					string value                | {"id":"a","key":"k","value":"1"}                     | 'value' must be an integer, not a string
					decimal value               | {"id":"a","key":"k","value":1.5}                     | not a decimal number
					decimal integral value      | {"id":"a","key":"k","value":1.0}                     | not a decimal number
					boolean value               | {"id":"a","key":"k","value":true}                    | not a boolean
					huge value                  | {"id":"a","key":"k","value":99999999999999999999999} | out of range
					value over the limit        | {"id":"a","key":"k","value":1000000001}              | out of range
					value under the limit       | {"id":"a","key":"k","value":-1000000001}             | out of range
					Long.MIN_VALUE              | {"id":"a","key":"k","value":-9223372036854775808}    | out of range
					lone high surrogate in id   | {"id":"a\\ud800","key":"k","value":1}                 | 'id' is not valid Unicode
					lone low surrogate in id    | {"id":"\\udc00b","key":"k","value":1}                 | 'id' is not valid Unicode
					reversed pair in id         | {"id":"\\udc00\\ud800","key":"k","value":1}            | 'id' is not valid Unicode
					lone surrogate in key       | {"id":"a","key":"k\\ud800","value":1}                 | 'key' is not valid Unicode
					unknown field               | {"id":"a","key":"k","value":1,"extra":2}             | unknown field 'extra'
					""")
	void rejectsInvalidBodiesWithAReason(String name, String json, String reason) {
		assertThatExceptionOfType(InvalidEventException.class).isThrownBy(() -> parse((json != null) ? json : ""))
			.withMessageContaining(reason);
	}

	@Test
	void rejectsOversizedIdAndKey() {
		assertThatExceptionOfType(InvalidEventException.class)
			.isThrownBy(() -> parse("{\"id\":\"" + "i".repeat(129) + "\",\"key\":\"k\",\"value\":1}"))
			.withMessageContaining("'id' is 129 characters long; the limit is 128");
		assertThatExceptionOfType(InvalidEventException.class)
			.isThrownBy(() -> parse("{\"id\":\"a\",\"key\":\"" + "k".repeat(257) + "\",\"value\":1}"))
			.withMessageContaining("'key' is 257 characters long; the limit is 256");
	}

	@Test
	void rejectsControlCharactersInId() {
		assertThatExceptionOfType(InvalidEventException.class)
			.isThrownBy(() -> parse("{\"id\":\"a\\u0000b\",\"key\":\"k\",\"value\":1}"))
			.withMessageContaining("control characters");
	}

	@Test
	void typedFieldsFollowTheSameRulesWithTheSameReasons() throws InvalidEventException {
		EventParser parser = new EventParser();
		assertThat(parser.event("e-1", "orders.eu", -EventParser.MAX_ABS_VALUE))
			.isEqualTo(new IncomingEvent("e-1", "orders.eu", -EventParser.MAX_ABS_VALUE));
		assertThatExceptionOfType(InvalidEventException.class).isThrownBy(() -> parser.event("", "k", 1))
			.withMessage("field 'id' must not be empty");
		assertThatExceptionOfType(InvalidEventException.class).isThrownBy(() -> parser.event("  ", "k", 1))
			.withMessage("field 'id' must not be blank");
		assertThatExceptionOfType(InvalidEventException.class).isThrownBy(() -> parser.event("e", "a b", 1))
			.withMessage("field 'key' may only contain letters, digits and . _ : -");
		assertThatExceptionOfType(InvalidEventException.class)
			.isThrownBy(() -> parser.event("e", "k", EventParser.MAX_ABS_VALUE + 1))
			.withMessage("field 'value' is out of range; it must be between -1000000000 and 1000000000");
		assertThatExceptionOfType(InvalidEventException.class)
			.isThrownBy(() -> parser.event("e", "k".repeat(EventParser.MAX_KEY_LENGTH + 1), 1))
			.withMessage("field 'key' is 257 characters long; the limit is 256");
	}

}
