package dev.lifecycle.scenarios;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Cut;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownRecord;
import io.grpc.Status;
import org.jspecify.annotations.Nullable;

/**
 * Judges one {@link ScenarioRun} against each {@link Promise}: what held, and for what
 * did not, what was seen instead.
 */
final class PromiseChecks {

	private static final Pattern ASYNC_DONE = Pattern
		.compile("scenario: async (\\S+) done on (\\S+) \\(virtual=(\\w+)\\)");

	/**
	 * Before Java 24 the JDK's HttpClient fails (or leaves unanswered until its timeout)
	 * a request on a connection that receives a GOAWAY, whatever the GOAWAY's last stream
	 * id (JDK-8335181), and Lifecycle sends one at the signal: there, an HTTP/2 request
	 * that failed at the connection says nothing about the server (an HTTP status still
	 * counts). CI's JDK 25 pass checks HTTP/2 in full.
	 */
	private static final boolean CLIENT_FAILS_ON_GOAWAY = Runtime.version().feature() < 24;

	private final ScenarioRun run;

	private final boolean web;

	PromiseChecks(ScenarioRun run) {
		this.run = run;
		this.web = run.scenario.stack().web();
	}

	/** What was seen instead of the promise; empty when it held. */
	List<String> problems(Promise promise) {
		List<String> problems = new ArrayList<>();
		switch (promise) {
			case READINESS_FIRST -> readinessFirst(problems);
			case SERVED_THROUGH_DRAIN -> servedThroughTheDrain(problems);
			case BACKGROUND_WORK -> backgroundWork(problems);
			case LONG_REQUEST ->
				check(problems, this.run.longRequest.equals("200 slept " + ScenarioRun.SLOW_MILLIS + " ms"),
						"the long request in flight at the drain's end ended: " + this.run.longRequest);
			case STREAMS_END_RETRYABLE -> streamsEnd(problems);
			case STREAMS_PACED -> streamsPaced(problems);
			case WEBSOCKETS_CLOSE_CODE -> webSocketsCloseCode(problems);
			case STREAMS_RESUME_EXACT -> streamsResumeExact(problems);
			case GOAWAY_FORM -> problems.addAll(this.run.goAwayForm.problems(this.run.scenario.stack()));
			case NO_CLIENT_HOLDS -> noClientHolds(problems);
			case PIPELINED_CLOSE -> pipelined(problems);
			case IN_PROCESS_CALLS -> inProcessCalls(problems);
			case EXECUTORS -> executors(problems);
			case NO_FAILED_REQUESTS -> noFailedRequests(problems);
			case CUT_NAMED -> cutNamed(problems);
			case TRUE_RECORDS -> trueRecords(problems);
		}
		return problems;
	}

	private void readinessFirst(List<String> problems) {
		long end = this.run.exitMs;
		if (this.web) {
			long down = this.run.readinessDownMs;
			check(problems, down >= 0 && down < end, "readiness 503 seen at " + down + " ms (exit at " + end + " ms)");
			check(problems, this.run.attempts.stream().anyMatch((a) -> a.ok() && a.startedMs() > down && down >= 0),
					"no request answered 200 after readiness turned 503");
		}
		long notServing = this.run.notServingMs;
		check(problems, notServing >= 0 && notServing < end, "gRPC health NOT_SERVING seen at " + notServing
				+ " ms (exit at " + end + " ms; before: " + this.run.lastHealth + ")");
		check(problems, this.run.attempts.stream()
			.anyMatch((a) -> a.client().equals("gRPC") && a.ok() && a.startedMs() > notServing && notServing >= 0),
				"no gRPC call answered after health turned NOT_SERVING");
	}

	private void servedThroughTheDrain(List<String> problems) {
		List<String> clients = this.web ? List.of("HTTP/1.1", "HTTP/2", "gRPC") : List.of("gRPC");
		for (String client : clients) {
			List<Attempt> inWindow = this.run.attempts.stream()
				.filter((a) -> a.client().equals(client) && a.startedMs() >= 0
						&& a.startedMs() < ScenarioRun.SERVED_WINDOW_MS)
				.toList();
			check(problems,
					inWindow.stream().anyMatch(Attempt::ok) || (client.equals("HTTP/2") && CLIENT_FAILS_ON_GOAWAY),
					client + ": none answered in the first " + ScenarioRun.SERVED_WINDOW_MS + " ms of the drain delay");
			List<Attempt> failed = inWindow.stream().filter((a) -> !a.ok() && !clientDefect(a)).toList();
			check(problems, failed.isEmpty(), client + " not answered during the drain delay: " + failed);
		}
		if (this.web) {
			check(problems, this.run.http2Version == java.net.http.HttpClient.Version.HTTP_2,
					"the HTTP/2 client spoke " + this.run.http2Version);
		}
	}

	private void backgroundWork(List<String> problems) {
		String log = this.run.log;
		int initiated = log.indexOf("Lifecycle: shutdown initiated");
		int drainEnds = log.indexOf("Lifecycle: stopping phase", Math.max(initiated, 0));
		check(problems, initiated >= 0 && drainEnds > initiated, "no shutdown and stopping phase in the log");
		if (initiated >= 0 && drainEnds > initiated) {
			int ticks = ScenarioRun.occurrences(log.substring(initiated, drainEnds), "scenario: tick ");
			check(problems, ticks >= 5,
					"only " + ticks + " @Scheduled ticks in the drain delay of " + ScenarioRun.DRAIN_DELAY);
		}
		List<String> afterSignal = this.run.attempts.stream()
			.filter((a) -> a.what().contains("async?id=") && a.ok() && a.startedMs() >= 0)
			.map((a) -> a.what().substring(a.what().indexOf('=') + 1))
			.toList();
		check(problems, !afterSignal.isEmpty(), "no @Async task accepted after the signal");
		List<String> done = new ArrayList<>();
		Matcher matcher = ASYNC_DONE.matcher(log);
		while (matcher.find()) {
			done.add(matcher.group(1));
			if (this.run.scenario.threads().virtual()) {
				check(problems, matcher.group(3).equals("true"),
						"an @Async task ran on " + matcher.group(2) + ", not a virtual thread");
			}
		}
		List<String> notDone = new ArrayList<>(this.run.asyncAccepted);
		notDone.removeAll(done);
		check(problems, notDone.isEmpty(), "@Async tasks accepted but never finished: " + notDone);
	}

	private void streamsEnd(List<String> problems) {
		Status end = this.run.ticksEnd;
		check(problems, end != null && end.getCode() == Status.Code.UNAVAILABLE, "the server stream ended with " + end);
		check(problems,
				this.run.ticksEndMs >= ScenarioRun.DRAIN_DELAY.toMillis() - 100
						&& this.run.ticksEndMs <= this.run.exitMs,
				"the server stream ended " + this.run.ticksEndMs + " ms after the signal (drain delay "
						+ ScenarioRun.DRAIN_DELAY + ", exit at " + this.run.exitMs + " ms)");
	}

	/**
	 * The streams end after the drain delay, each cleanly, their ends spread: by the
	 * schedule over the pacing's spread (the scenario's streams at its rate, within the
	 * window), judged at 40 % of it, since a busy machine can only stretch it. On the web
	 * stacks the event streams get a reconnection advice between half the setting and all
	 * of it, on WebFlux always, on the servlet stacks unless an event was being written
	 * at that instant; never inside an event.
	 */
	private void streamsPaced(List<String> problems) {
		PacedStreams paced = this.run.paced;
		List<PacedStreams.End> ends = List.copyOf(paced.ends);
		check(problems, ends.size() == PacedStreams.COUNT,
				ends.size() + " of " + PacedStreams.COUNT + " streams ended: " + ends);
		check(problems,
				ends.stream()
					.allMatch((end) -> end.how().equals(this.web ? "clean" : "UNAVAILABLE")
							|| (end.kind().equals("WebSocket") && end.how().startsWith("close "))),
				"stream ends: " + ends);
		long first = ends.stream().mapToLong(PacedStreams.End::atMs).min().orElse(-1);
		long last = ends.stream().mapToLong(PacedStreams.End::atMs).max().orElse(-1);
		check(problems, first >= ScenarioRun.DRAIN_DELAY.toMillis() - 100, "the first stream ended " + first
				+ " ms after the signal (drain delay " + ScenarioRun.DRAIN_DELAY + ")");
		long spread = Math.min(PacedStreams.COUNT * 1000L / PacedStreams.END_RATE,
				this.web ? ScenarioRun.DRAIN_DELAY.toMillis() : ScenarioRun.GRPC_GRACE_PERIOD.toMillis() / 2);
		check(problems, last - first >= spread * 4 / 10, "the streams' ends spread over " + (last - first)
				+ " ms, against a schedule of " + spread + " ms: " + ends);
		if (!this.web) {
			return;
		}
		long most = PacedStreams.SSE_RETRY.toMillis();
		List<List<String>> lines = List.copyOf(paced.lines);
		check(problems,
				lines.stream()
					.flatMap(List::stream)
					.allMatch((line) -> line.isEmpty() || line.matches("id:\\d+|data:tick \\d+|retry:\\d+")),
				"a stream received a line that is neither an event nor an advice: " + lines);
		long advised = lines.stream()
			.filter((received) -> received.stream()
				.filter((line) -> line.startsWith("retry:"))
				.mapToLong((line) -> Long.parseLong(line.substring("retry:".length())))
				.anyMatch((retry) -> retry >= most / 2 && retry <= most))
			.count();
		long needed = (this.run.scenario.stack() == Stack.REACTOR_NETTY) ? lines.size() : lines.size() * 3 / 4;
		check(problems, advised >= needed, advised + " of " + lines.size() + " event streams got a retry: advice "
				+ "between " + most / 2 + " and " + most + " ms");
	}

	/**
	 * Every WebSocket session got a close frame with the code the scenario chose; when
	 * they closed is judged with the other streams' ends.
	 */
	private void webSocketsCloseCode(List<String> problems) {
		List<PacedStreams.End> closes = this.run.paced.ends.stream()
			.filter((end) -> end.kind().equals("WebSocket"))
			.toList();
		check(problems, closes.size() == PacedStreams.WEB_SOCKETS,
				closes.size() + " of " + PacedStreams.WEB_SOCKETS + " WebSocket sessions closed: " + closes);
		check(problems, closes.stream().allMatch((end) -> end.how().equals("close " + PacedStreams.CLOSE_CODE)),
				"WebSocket sessions closed otherwise than with " + PacedStreams.CLOSE_CODE + ": " + closes);
	}

	/**
	 * Each event stream, its events before the end and those after resuming on the next
	 * instance with the last id it read, got every event from the first once and in
	 * order, and some after resuming.
	 */
	private void streamsResumeExact(List<String> problems) {
		List<List<String>> before = List.copyOf(this.run.paced.lines);
		List<List<String>> after = List.copyOf(this.run.paced.resumed);
		check(problems, after.size() == before.size(), after.size() + " of " + before.size()
				+ " event streams resumed on the next instance " + this.run.resumeFailure);
		for (int i = 0; i < Math.min(before.size(), after.size()); i++) {
			List<ServerSentEvents.Event> first = ServerSentEvents.events(before.get(i));
			List<ServerSentEvents.Event> resumed = ServerSentEvents.events(after.get(i));
			List<ServerSentEvents.Event> all = new ArrayList<>(first);
			all.addAll(resumed);
			List<String> wrong = new ArrayList<>();
			for (int n = 0; n < all.size(); n++) {
				if (!all.get(n).equals(new ServerSentEvents.Event(Integer.toString(n), "tick " + n))) {
					wrong.add("#" + n + " " + all.get(n));
				}
			}
			check(problems, wrong.isEmpty() && resumed.size() >= PacedStreams.RESUMED_EVENTS,
					"event stream " + i + ": " + first.size() + " events, then " + resumed.size() + " resumed after id "
							+ ServerSentEvents.lastEventId(before.get(i)) + "; out of sequence: " + wrong);
		}
	}

	private void noClientHolds(List<String> problems) {
		check(problems, this.run.exitMs >= 0 && this.run.exitMs < ScenarioRun.GRPC_SERVER_BUDGET.toMillis() - 10_000,
				"with a stream whose client reads nothing, the process ended " + this.run.exitMs
						+ " ms after the signal (the gRPC server's budget: " + ScenarioRun.GRPC_SERVER_BUDGET + ")");
		check(problems, !this.run.deafCalls.isEmpty() && this.run.deafCalls.get(0).result().equals("0"),
				"the deaf client's first call: " + this.run.deafCalls);
		long goAway = this.run.goAwayMs;
		check(problems, goAway >= 0, "the deaf client saw no GOAWAY: " + this.run.deafCalls);
		// The client grace is 2 s: calls after it, and a margin of 3 s, must not be
		// served.
		List<Attempt> servedLate = this.run.deafCalls.stream()
			.filter((call) -> goAway >= 0 && call.startedMs() > goAway + 5000 && call.result().equals("0"))
			.toList();
		check(problems, servedLate.isEmpty(), "calls of a client deaf to the GOAWAY (at " + goAway
				+ " ms) and its PING still served after the client grace: " + servedLate);
	}

	private void pipelined(List<String> problems) {
		// A round that starts less than a second before the drain delay's end may meet
		// the server's stop, which closes connections between requests: only earlier
		// rounds are judged.
		List<Map.Entry<Long, String>> judged = this.run.pipelined.stream()
			.filter((round) -> round.getKey() < ScenarioRun.DRAIN_DELAY.toMillis() - 1000)
			.toList();
		check(problems, !judged.isEmpty(), "no round of pipelined requests early enough in the drain delay: "
				+ this.run.pipelined.stream().map(Map.Entry::getKey).toList());
		for (Map.Entry<Long, String> round : judged) {
			check(problems, Pipelining.closesAfterTheLast(round.getValue()), "pipelined requests sent " + round.getKey()
					+ " ms into the drain were answered:\n" + round.getValue());
		}
	}

	private void inProcessCalls(List<String> problems) {
		check(problems,
				this.run.log
					.contains("scenario: flusher's calls to the in-process server answered [echo 1, echo 2, echo 3]"),
				"the flusher's calls to the in-process server were not all answered: "
						+ lines(this.run.log, "scenario: flusher"));
		check(problems, outcome("flusher") == Outcome.COMPLETED, "the flusher's outcome: " + outcome("flusher"));
	}

	private void executors(List<String> problems) {
		check(problems, this.run.log.contains("scenario: own executor ran a task"),
				"the executor bean of the application's own class ran nothing (did the application start?)");
		for (String name : List.of("reminders", "countingExecutor")) {
			Outcome outcome = outcome(name);
			check(problems, outcome == null || outcome == Outcome.COMPLETED, name + "'s outcome: " + outcome);
		}
		check(problems, this.run.exitMs >= 0 && this.run.exitMs < 20_000,
				"the process ended " + this.run.exitMs + " ms after the signal");
		check(problems, this.run.log.contains("scenario: flush handed to the common pool done"),
				"the work the flusher handed to the common pool never finished");
	}

	private void noFailedRequests(List<String> problems) {
		for (Attempt attempt : this.run.attempts) {
			check(problems, !attempt.serverError(), "answered " + attempt);
			if (clientDefect(attempt)) {
				continue;
			}
			boolean retryable = attempt.result().startsWith("io") || attempt.result().equals("UNAVAILABLE");
			check(problems,
					attempt.ok() || (retryable && attempt.startedMs() >= ScenarioRun.DRAIN_DELAY.toMillis() - 500),
					"failed before the drain delay ended: " + attempt);
		}
		Long failedRequests = (this.run.report != null) ? this.run.report.failedRequests() : null;
		check(problems, failedRequests == null || failedRequests == 0,
				"the report counts failedRequests=" + failedRequests);
	}

	private void cutNamed(List<String> problems) {
		Boolean clean = (this.run.report != null) ? this.run.report.clean() : null;
		check(problems, Boolean.FALSE.equals(clean), "the report says clean=" + clean + " with calls cut");
		List<Cut> cut = component(ScenarioRun.GRPC_SERVER).map(ComponentReport::cut).orElse(List.of());
		check(problems, cut.size() == 2 && cut.stream()
			.allMatch((call) -> !call.byCeiling() && call.work().startsWith(ScenarioService.SERVICE + "/Stuck")),
				"the gRPC server's cut calls: " + cut);
		check(problems, this.run.stuckEnds.size() == 2 && !this.run.stuckEnds.contains("OK"),
				"the stuck calls ended at their clients with " + this.run.stuckEnds);
	}

	private void trueRecords(List<String> problems) {
		ShutdownRecord report = this.run.report;
		check(problems, report != null, "no report file");
		if (report == null) {
			return;
		}
		Integer exitCode = report.exitCode();
		check(problems, exitCode != null && exitCode == this.run.exitCode,
				"exit code " + this.run.exitCode + ", the report says " + exitCode);
		check(problems, report.state() == ShutdownRecord.State.COMPLETED, "the report's state: " + report.state());
		boolean clean = this.web;
		check(problems, Objects.equals(report.clean(), clean), "the report says clean=" + report.clean());
		if (this.web) {
			check(problems, this.run.exitCode == 0, "exit code " + this.run.exitCode);
			for (ComponentReport component : report.components()) {
				check(problems, component.outcome() == Outcome.COMPLETED && component.cut().isEmpty(),
						"component in the report: " + component);
			}
		}
		String summary = this.run.summary;
		check(problems, summary.contains("Lifecycle: previous shutdown (") && summary.contains("signal, ")
				&& summary.contains(clean ? ", clean, " : ", not clean, ") && summary.contains("exit " + exitCode),
				"the next start's summary: " + summary);
	}

	/**
	 * An HTTP/2 request the JDK's client failed on a GOAWAY, on a JDK with JDK-8335181.
	 */
	private static boolean clientDefect(Attempt attempt) {
		return CLIENT_FAILS_ON_GOAWAY && attempt.client().equals("HTTP/2") && attempt.result().startsWith("io");
	}

	private @Nullable Outcome outcome(String component) {
		return component(component).map(ComponentReport::outcome).orElse(null);
	}

	private Optional<ComponentReport> component(String name) {
		return (this.run.report != null) ? this.run.report.component(name) : Optional.empty();
	}

	private static String lines(String log, String part) {
		return String.join("\n", log.lines().filter((line) -> line.contains(part)).toList());
	}

	private static void check(List<String> problems, boolean held, String otherwise) {
		if (!held) {
			problems.add(otherwise);
		}
	}

}
