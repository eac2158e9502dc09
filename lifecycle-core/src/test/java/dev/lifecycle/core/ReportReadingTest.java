package dev.lifecycle.core;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import dev.lifecycle.core.record.ReportFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reading records never stops a start: the report reader answers for every input, a
 * damaged, cut-short or foreign report is skipped with one WARN naming it, and the start
 * goes on with the newest report that can be read.
 */
class ReportReadingTest {

	@TempDir
	Path directory;

	private Path marker() {
		return this.directory.resolve("lifecycle-orders.running");
	}

	private LifecycleManager.Builder builder() {
		return LifecycleManager.builder("orders").runMarker(marker());
	}

	private List<Path> reports() {
		return new ReportFiles(marker()).list();
	}

	/**
	 * A real report of a shutdown with a component, a handler, escapes and non-ASCII
	 * text.
	 */
	private String realReport() throws Exception {
		LifecycleManager manager = builder().applicationVersion("1.2.3 \"é\"").build();
		manager.registerPassive("pipeline \\ \"α\"", ComponentOptions.defaults().withPhase(10), (handle) -> {
		});
		manager.addShutdownHandler("checkpoint", Duration.ofSeconds(5), () -> {
		});
		manager.start();
		manager.triggerShutdown(ShutdownReason.REQUESTED, "a\\b", "line\nwith \"quotes\" and \\u0041");
		manager.awaitTermination();
		return Files.readString(reports().get(reports().size() - 1), StandardCharsets.UTF_8);
	}

	@Test
	void aReportReadsBackAsTheRecordThatWroteIt() throws Exception {
		String text = realReport();

		ShutdownRecord record = ((ReportCodec.Read) ReportCodec.read(text)).record();

		assertThat(record.trigger())
			.isEqualTo(new ShutdownTrigger(ShutdownReason.REQUESTED, "a\\b", "line\nwith \"quotes\" and \\u0041"));
		assertThat(record.state()).isEqualTo(ShutdownRecord.State.COMPLETED);
		assertThat(record.applicationVersion()).isEqualTo("1.2.3 \"é\"");
		assertThat(record.component("pipeline \\ \"α\""))
			.hasValueSatisfying((entry) -> assertThat(entry.outcome()).isEqualTo(Outcome.COMPLETED));
		assertThat(ReportCodec.write(record)).isEqualTo(text);
	}

	@Test
	void everyTruncationOfARealReportIsReadOrRejectedNeverThrown() throws Exception {
		String text = realReport();
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		int rejected = 0;
		for (int length = 0; length < bytes.length; length++) {
			String cut = new String(bytes, 0, length, StandardCharsets.UTF_8);
			ReportCodec.Result result = ReportCodec.read(cut);
			if (result instanceof ReportCodec.Rejected) {
				rejected++;
			}
		}
		// Only the whole text, or the whole text less its final line end, is a report.
		assertThat(rejected).isGreaterThanOrEqualTo(bytes.length - 1);
		assertThat(ReportCodec.read(text)).isInstanceOf(ReportCodec.Read.class);
	}

	@Test
	void anyBytesAtAllAreReadOrRejectedNeverThrown() throws Exception {
		String text = realReport();
		String alphabet = "{}[]\":,\\u0123456789eE.-+ntfrabc\u0000\ud800é";
		Random random = new Random(42);
		for (int i = 0; i < 5000; i++) {
			char[] chars = text.toCharArray();
			for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
				chars[random.nextInt(chars.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
			}
			assertThat(ReportCodec.read(new String(chars))).isNotNull();
		}
		assertThat(ReportCodec.read("[".repeat(100_000))).isInstanceOf(ReportCodec.Rejected.class);
		assertThat(
				ReportCodec.read("{\"schema\": \"dev.lifecycle/shutdown-report\", \"a\":" + "{\"a\":".repeat(50_000)))
			.isInstanceOf(ReportCodec.Rejected.class);
		assertThat(ReportCodec.read("{\"schema\": \"dev.lifecycle/shutdown-report\", \"pid\": \"x\", \"steps\": 3, "
				+ "\"exitCode\": 99999999999, \"trigger\": [], \"components\": [1, {\"name\": 2}]}"))
			.isInstanceOfSatisfying(ReportCodec.Read.class, (read) -> {
				assertThat(read.record().exitCode()).isNull();
				assertThat(read.record().trigger().reason()).isEqualTo(ShutdownReason.UNKNOWN);
				assertThat(read.record().components()).isEmpty();
			});
		assertThat(ReportCodec.read("{\"token\": \"hunter2\"}")).isInstanceOfSatisfying(ReportCodec.Rejected.class,
				(rejected) -> assertThat(rejected.reason()).doesNotContain("hunter2"));
	}

	@Test
	void aReportCutInsideAStringEscapeIsSkippedWithOneWarnAndTheStartGoesOnWithTheOlderReport() throws Exception {
		realReport();
		Path older = reports().get(0);
		Path torn = this.directory.resolve(ReportFiles.name("lifecycle-orders", 2));
		String whole = Files.readString(older);
		Files.writeString(torn, whole.substring(0, whole.indexOf("\\\"quotes") + 1));
		LogCapture logs = LogCapture.start();
		LifecycleManager next;
		try {
			next = builder().build();
			next.start();
		}
		finally {
			logs.stop();
		}

		assertThat(logs.messages()).filteredOn((line) -> line.contains(torn.getFileName().toString()))
			.singleElement()
			.satisfies((line) -> assertThat(line).startsWith("Lifecycle: skipping ").contains("not valid JSON"));
		PreviousRun previous = next.previousRun().orElseThrow();
		assertThat(previous.reportFile()).isEqualTo(older);
		assertThat(previous.summary()).contains("): requested, clean");
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();
	}

	@Test
	void aFileIsAReportByItsSchemaFieldWhateverItsLayout() throws Exception {
		Path compact = this.directory.resolve(ReportFiles.name("lifecycle-orders", 1));
		Files.writeString(compact,
				"{\"schema\":\"dev.lifecycle/shutdown-report\",\"version\":1,\"trigger\":"
						+ "{\"reason\":\"signal\",\"component\":\"signal\"},\"state\":\"completed\",\"exitCode\":0,"
						+ "\"clean\":true,\"elapsedMs\":1200}");

		PreviousRun previous = builder().build().previousRun().orElseThrow();

		assertThat(previous.summary()).contains("): signal, clean, 1.2 s, exit 0");
		assertThat(ReportFiles.isReport(compact)).isTrue();
	}

}
