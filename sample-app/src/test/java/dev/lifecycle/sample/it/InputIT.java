package dev.lifecycle.sample.it;

import java.math.BigInteger;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.testfixtures.ChildJvm;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No client input can take the service down or make it lose an acknowledged event
 * (findings 1 and 2 of the hardening issue), shown on a real process and a real SQLite
 * file: the process starts on a database that an earlier release let a client poison (a
 * key whose sum overflows 64 bits, which made every start fail in replay), counts it
 * exactly, refuses values and ids that would overflow or collide, and keeps everything
 * across a restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InputIT {

	private static final BigInteger POISONED_SUM = BigInteger.valueOf(Long.MIN_VALUE).subtract(BigInteger.ONE);

	private Path work;

	private Path data;

	private ChildJvm sample;

	@BeforeAll
	void startOnAPoisonedDatabase(@TempDir Path work) throws Exception {
		this.work = work;
		this.data = work.resolve("data");
		// What an earlier release acknowledged: Long.MIN_VALUE passed its Math.abs check,
		// then -1.
		Verify.createLegacyDatabase(this.data.resolve("events.db"),
				"INSERT INTO event_log(event_id, key, value) VALUES ('p1', 'victim', -9223372036854775808), "
						+ "('p2', 'victim', -1)");
		this.sample = SampleApp.launch(work.resolve("run-1"), this.data).awaitReady();
	}

	@AfterAll
	void stop() {
		this.sample.close();
	}

	@Test
	@Order(1)
	void aLogThatOverflowedA64BitSumReplaysAndIsCountedExactly() throws Exception {
		assertThat(this.sample.log()).contains("migrated").contains("replayed 2 event(s)");
		assertCount("victim", POISONED_SUM, 2);
	}

	@Test
	@Order(2)
	void valuesOutsideTheRangeAreRefusedWithAReasonAndTheBoundsAreAccepted() throws Exception {
		HttpResponse<String> refused = this.sample.post("/events",
				"{\"id\":\"min\",\"key\":\"bounds\",\"value\":-9223372036854775808}");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(reason(refused)).contains("'value' is out of range");
		assertThat(this.sample.post("/events", "{\"id\":\"n1\",\"key\":\"bounds\",\"value\":-1000000000}").statusCode())
			.isEqualTo(202);
		assertThat(this.sample.post("/events", "{\"id\":\"n2\",\"key\":\"bounds\",\"value\":-1000000000}").statusCode())
			.isEqualTo(202);
		assertThat(this.sample.post("/events", "{\"id\":\"n3\",\"key\":\"bounds\",\"value\":1000000000}").statusCode())
			.isEqualTo(202);
		assertThat(this.sample.post("/events", "{\"id\":\"p3\",\"key\":\"victim\",\"value\":-1000000000}").statusCode())
			.isEqualTo(202);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertCount("bounds", BigInteger.valueOf(-1000000000), 3));
		assertCount("victim", POISONED_SUM.subtract(BigInteger.valueOf(1000000000)), 3);
		assertThat(this.sample.isAlive()).isTrue();
	}

	@Test
	@Order(3)
	void anIdThatIsNotValidUnicodeIsRefusedSoItCannotShadowAnotherClientsId() throws Exception {
		HttpResponse<String> refused = this.sample.post("/events",
				"{\"id\":\"a\\ud800\",\"key\":\"shadow\",\"value\":1}");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(reason(refused)).contains("'id' is not valid Unicode");
		HttpResponse<String> other = this.sample.post("/events", "{\"id\":\"a?\",\"key\":\"shadow\",\"value\":1}");
		assertThat(other.statusCode()).isEqualTo(202);
		assertThat(other.body()).contains("\"duplicate\":false");
		HttpResponse<String> emoji = this.sample.post("/events",
				"{\"id\":\"smile-\\ud83d\\ude00\",\"key\":\"shadow\",\"value\":1}");
		assertThat(emoji.statusCode()).isEqualTo(202);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertCount("shadow", BigInteger.TWO, 2));
	}

	@Test
	@Order(4)
	void everythingAcknowledgedIsCountedTheSameAfterARestart() throws Exception {
		this.sample.sigterm();
		assertThat(this.sample.awaitExit(Duration.ofSeconds(60))).as("exit code after SIGTERM").isZero();
		this.sample = SampleApp.launch(this.work.resolve("run-2"), this.data).awaitReady();
		assertCount("victim", POISONED_SUM.subtract(BigInteger.valueOf(1000000000)), 3);
		assertCount("bounds", BigInteger.valueOf(-1000000000), 3);
		assertCount("shadow", BigInteger.TWO, 2);
		assertThat(
				Verify.sqlLong(this.data.resolve("events.db"), "SELECT count(*) FROM event_log WHERE event_id = 'a?'"))
			.isEqualTo(1);
		this.sample.sigterm();
		assertThat(this.sample.awaitExit(Duration.ofSeconds(60))).isZero();
	}

	private void assertCount(String key, BigInteger sum, long count) throws Exception {
		HttpResponse<String> response = this.sample.get("/counts/" + key);
		assertThat(response.statusCode()).as("GET /counts/%s: %s", key, response.body()).isEqualTo(200);
		JsonNode json = Verify.JSON.readTree(response.body());
		assertThat(json.get("sum").bigIntegerValue()).as("sum of %s", key).isEqualTo(sum);
		assertThat(json.get("count").longValue()).as("count of %s", key).isEqualTo(count);
	}

	private static String reason(HttpResponse<String> response) {
		return Verify.JSON.readTree(response.body()).get("reason").stringValue();
	}

}
