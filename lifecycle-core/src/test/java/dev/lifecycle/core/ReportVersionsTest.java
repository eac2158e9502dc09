package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The codec reads every release's report into the one typed record: a version 1 file
 * (unfinished work as {@code "component: work"} strings, no step kinds) as well as its
 * own, and a newer release's labels as {@code UNKNOWN}, never as {@code null} and never
 * by throwing.
 */
class ReportVersionsTest {

	private static final String VERSION_1 = """
			{
			  "schema": "dev.lifecycle/shutdown-report",
			  "version": 1,
			  "sequence": 4,
			  "service": "orders",
			  "run": "pid=7 host=a",
			  "pid": 7,
			  "initiatedAt": "2026-01-02T03:04:05.678Z",
			  "trigger": {"reason": "start-failed", "component": "dataSource", "detail": "boom"},
			  "state": "completed",
			  "lastStep": "standard drain, phase 10",
			  "steps": [{"name": "drain delay", "startMs": 0, "durationMs": 5, "result": "ok"},
			    {"name": "shutdown handler 'backup'", "startMs": 5, "durationMs": 7, "result": "failed"},
			    {"name": "standard drain, phase 10", "startMs": 12, "durationMs": 30, "result": "timeout"}],
			  "components": [{"name": "jobs", "tier": "standard", "phase": 10, "outcome": "timeout",
			    "stopStartMs": 12, "durationMs": 30, "cut": ["call 'Orders/Put'",
			    "cut by the global ceiling: thread \\"w-1\\" runs its stop callback"]},
			    {"name": "early", "tier": "infrastructure", "phase": 0, "durationMs": 0}],
			  "exitCode": 1,
			  "clean": false,
			  "elapsedMs": 6200,
			  "failedSteps": ["shutdown handler 'backup'"],
			  "unfinishedWork": ["jobs: job 'import' execution 7: STOPPED", "jobs: cut at its budget"],
			  "failedRequests": 2,
			  "diagnostics": "",
			  "completedAt": "2026-01-02T03:04:11.878Z"
			}
			""";

	@Test
	void aVersion1ReportReadsIntoTheTypedRecordWithItsStepKindsAndStructuredUnfinishedWork() {
		ShutdownRecord record = read(VERSION_1);

		assertThat(record.trigger()).isEqualTo(new ShutdownTrigger(ShutdownReason.START_FAILED, "dataSource", "boom"));
		assertThat(record.state()).isEqualTo(ShutdownRecord.State.COMPLETED);
		assertThat(record.initiatedAt()).isEqualTo(Instant.parse("2026-01-02T03:04:05.678Z"));
		assertThat(record.completedAt()).isEqualTo(Instant.parse("2026-01-02T03:04:11.878Z"));
		assertThat(record.elapsed()).isEqualTo(Duration.ofMillis(6200));
		assertThat(record.steps()).containsExactly(
				new StepReport(ShutdownStep.DRAIN_DELAY, "drain delay", Duration.ZERO, Duration.ofMillis(5),
						StepResult.OK),
				new StepReport(ShutdownStep.SHUTDOWN_HANDLER, "shutdown handler 'backup'", Duration.ofMillis(5),
						Duration.ofMillis(7), StepResult.FAILED),
				new StepReport(ShutdownStep.STANDARD_DRAIN, "standard drain, phase 10", Duration.ofMillis(12),
						Duration.ofMillis(30), StepResult.TIMEOUT));
		assertThat(record.components()).containsExactly(
				new ComponentReport("jobs", Tier.STANDARD, 10, Outcome.TIMEOUT, Duration.ofMillis(12),
						Duration.ofMillis(30),
						List.of(new Cut("call 'Orders/Put'", false),
								new Cut("thread \"w-1\" runs its stop callback", true))),
				new ComponentReport("early", Tier.INFRASTRUCTURE, 0, Outcome.UNKNOWN, null, Duration.ZERO, List.of()));
		assertThat(record.unfinishedWork()).containsExactly(
				new UnfinishedWork("jobs", "job 'import' execution 7: STOPPED"),
				new UnfinishedWork("jobs", "cut at its budget"));
		assertThat(record.exitCode()).isEqualTo(1);
		assertThat(record.clean()).isFalse();
		assertThat(record.failedRequests()).isEqualTo(2L);
	}

	@Test
	void labelsANewerReleaseWritesReadAsUnknownAndTheRestOfTheReportStillReads() {
		ShutdownRecord record = read("""
				{"schema": "dev.lifecycle/shutdown-report", "version": 9,
				 "trigger": {"reason": "meteor", "component": "sky"},
				 "state": "paused",
				 "steps": [{"kind": "warp drain", "name": "warp drain", "startMs": 1, "durationMs": 2,
				   "result": "skipped"}],
				 "components": [{"name": "x", "tier": "cosmic", "phase": 1, "outcome": "vanished",
				   "durationMs": 3}],
				 "exitCode": 0, "unfinishedWork": [{"component": "x", "work": "y"}, {"work": "no component"}]}
				""");

		assertThat(record.trigger().reason()).isEqualTo(ShutdownReason.UNKNOWN);
		assertThat(record.trigger().component()).isEqualTo("sky");
		assertThat(record.state()).isEqualTo(ShutdownRecord.State.UNKNOWN);
		assertThat(record.steps()).singleElement().satisfies((step) -> {
			assertThat(step.kind()).isEqualTo(ShutdownStep.UNKNOWN);
			assertThat(step.result()).isEqualTo(StepResult.UNKNOWN);
		});
		assertThat(record.components()).singleElement().satisfies((component) -> {
			assertThat(component.tier()).isEqualTo(Tier.UNKNOWN);
			assertThat(component.outcome()).isEqualTo(Outcome.UNKNOWN);
		});
		assertThat(record.unfinishedWork()).containsExactly(new UnfinishedWork("x", "y"));
	}

	@Test
	void theFieldsTheEndpointShowsReadBackAsTheSameRecordAndTheTextAsTheSameFields() {
		ShutdownRecord record = read(VERSION_1);

		ShutdownRecord again = ((ReportCodec.Read) ReportCodec.read(ReportCodec.fields(record))).record();

		assertThat(again).isEqualTo(record);
		assertThat(read(ReportCodec.write(record))).isEqualTo(record);
		assertThat(ReportCodec.fields(record)).containsEntry("version", ShutdownRecord.VERSION);
	}

	@Test
	void aRecordBuiltFromTheEnginesReportHasTheReportsFieldsUnderTheSameNames() {
		ShutdownTrigger trigger = new ShutdownTrigger(ShutdownReason.SIGNAL, "signal", "");
		ComponentReport jobs = new ComponentReport("jobs", Tier.STANDARD, 10, Outcome.TIMEOUT, Duration.ofMillis(3),
				Duration.ofMillis(40),
				List.of(new Cut("call 'x'", false), new Cut("thread \"t\" runs its loop", true)));
		StepReport step = new StepReport(ShutdownStep.STANDARD_DRAIN, "standard drain, phase 10", Duration.ofMillis(3),
				Duration.ofMillis(40), StepResult.OK);
		ShutdownReport report = new ShutdownReport(trigger, List.of(jobs), false, 75, true, Duration.ofMillis(50),
				List.of(), List.of(step), "stacks", 4,
				List.of(new UnfinishedWork("jobs", "cut by the global ceiling")));

		ShutdownRecord record = ShutdownRecord.builder(trigger).report(report).build();

		assertThat(record.trigger()).isEqualTo(report.trigger());
		assertThat(record.components()).isEqualTo(report.components());
		assertThat(record.steps()).isEqualTo(report.steps());
		assertThat(record.unfinishedWork()).isEqualTo(report.unfinishedWork());
		assertThat(record.elapsed()).isEqualTo(report.elapsed());
		assertThat(record.ceilingFired()).isTrue();
		assertThat(record.exitCode()).isEqualTo(75);
		assertThat(record.failedRequests()).isEqualTo(4L);
		assertThat(read(ReportCodec.write(record))).isEqualTo(record);
	}

	@Test
	void unknownOnlyDescribesAReportReadBackNoTriggerOrComponentOfThisProcessHasIt() {
		LifecycleManager manager = LifecycleManager.builder("orders").build();

		assertThatIllegalArgumentException()
			.isThrownBy(() -> manager.register("x", ComponentOptions.defaults().withTier(Tier.UNKNOWN)))
			.withMessageStartingWith("Component 'x': tier UNKNOWN only describes a report read back");
		manager.start();
		assertThatIllegalArgumentException().isThrownBy(() -> manager.triggerShutdown(ShutdownReason.UNKNOWN, "test"))
			.withMessageContaining("UNKNOWN only describes a report read back");
		assertThat(manager.isShutdownInitiated()).isFalse();
		manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
	}

	private static ShutdownRecord read(String text) {
		ReportCodec.Result result = ReportCodec.read(text);
		assertThat(result).isInstanceOf(ReportCodec.Read.class);
		return ((ReportCodec.Read) result).record();
	}

}
