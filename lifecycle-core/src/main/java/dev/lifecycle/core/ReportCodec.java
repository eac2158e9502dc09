package dev.lifecycle.core;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import dev.lifecycle.core.record.ReportJson;
import org.jspecify.annotations.Nullable;

/**
 * The one place a {@link ShutdownRecord}'s fields are spelled: lays it out as the fields
 * of the report file (and of the {@code lifecycle} endpoint, which shows the same
 * fields), writes them as JSON and reads them back. The reader is total: for any text at
 * all it returns a record or a {@link Rejected} reason, and never throws. A text is a
 * report when it parses and its {@code schema} field says so, whatever its layout; a
 * field of the wrong type is read as absent, and a label this release does not know (a
 * newer release wrote it) as the enum's {@code UNKNOWN}. It reads what every release
 * wrote: version 1 wrote unfinished work as {@code "component: work"} strings, each cut
 * as one string, and no step kinds.
 */
public final class ReportCodec {

	private static final String VERSION_1_SEPARATOR = ": ";

	private ReportCodec() {
	}

	/**
	 * The report as the file holds it.
	 * @param record the record
	 * @return its JSON text
	 */
	public static String write(ShutdownRecord record) {
		return ReportJson.write(fields(record));
	}

	/**
	 * The report's fields, as the file holds them: in a fixed order, absent values left
	 * out, each a string, number, boolean, list or map of them; what the endpoint shows.
	 * @param record the record
	 * @return the fields, a new map
	 */
	public static Map<String, Object> fields(ShutdownRecord record) {
		Map<String, Object> out = new LinkedHashMap<>();
		out.put("schema", ShutdownRecord.SCHEMA);
		out.put("version", ShutdownRecord.VERSION);
		putIfPositive(out, "sequence", record.sequence());
		putIfPresent(out, "service", record.service());
		putIfPresent(out, "run", record.run());
		putIfPositive(out, "pid", record.pid());
		putIfPresent(out, "jvm", record.jvm());
		putIfPresent(out, "applicationVersion", record.applicationVersion());
		putIfPresent(out, "initiatedAt", (record.initiatedAt() != null) ? record.initiatedAt().toString() : null);
		Map<String, Object> trigger = new LinkedHashMap<>();
		trigger.put("reason", record.trigger().reason().label());
		trigger.put("component", record.trigger().component());
		trigger.put("detail", record.trigger().detail());
		out.put("trigger", trigger);
		out.put("state", record.state().label());
		putIfPresent(out, "lastStep", record.lastStep());
		List<Map<String, Object>> steps = new ArrayList<>();
		for (StepReport step : record.steps()) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("kind", step.kind().label());
			entry.put("name", step.name());
			entry.put("startMs", step.start().toMillis());
			entry.put("durationMs", step.duration().toMillis());
			entry.put("result", step.result().label());
			steps.add(entry);
		}
		out.put("steps", steps);
		List<Map<String, Object>> components = new ArrayList<>();
		for (ComponentReport component : record.components()) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("name", component.name());
			entry.put("tier", component.tier().name().toLowerCase(Locale.ROOT));
			entry.put("phase", component.phase());
			if (component.outcome() != Outcome.UNKNOWN) {
				entry.put("outcome", component.outcome().label());
			}
			putIfPresent(entry, "stopStartMs", (component.start() != null) ? component.start().toMillis() : null);
			entry.put("durationMs", component.duration().toMillis());
			if (!component.cut().isEmpty()) {
				List<Map<String, Object>> cut = new ArrayList<>();
				for (Cut each : component.cut()) {
					Map<String, Object> item = new LinkedHashMap<>();
					item.put("work", each.work());
					if (each.byCeiling()) {
						item.put("byCeiling", true);
					}
					cut.add(item);
				}
				entry.put("cut", cut);
			}
			components.add(entry);
		}
		out.put("components", components);
		if (record.componentsTruncated()) {
			out.put("componentsTruncated", true);
		}
		putIfPresent(out, "exitCode", record.exitCode());
		putIfPresent(out, "clean", record.clean());
		putIfPresent(out, "elapsedMs", (record.elapsed() != null) ? record.elapsed().toMillis() : null);
		if (record.exitCode() != null) {
			out.put("failedSteps", record.failedSteps());
			List<Map<String, Object>> unfinished = new ArrayList<>();
			for (UnfinishedWork work : record.unfinishedWork()) {
				Map<String, Object> entry = new LinkedHashMap<>();
				entry.put("component", work.component());
				entry.put("work", work.work());
				unfinished.add(entry);
			}
			out.put("unfinishedWork", unfinished);
		}
		putIfPresent(out, "failedRequests", record.failedRequests());
		putIfPresent(out, "diagnostics", record.diagnostics());
		putIfPresent(out, "completedAt", (record.completedAt() != null) ? record.completedAt().toString() : null);
		return out;
	}

	private static void putIfPresent(Map<String, Object> map, String key, @Nullable Object value) {
		if (value != null) {
			map.put(key, value);
		}
	}

	private static void putIfPositive(Map<String, Object> map, String key, long value) {
		if (value > 0) {
			map.put(key, value);
		}
	}

	/**
	 * Whether a text, whole or cut short, begins as a report does: an object whose first
	 * member is {@code schema} with the report's value, whatever the whitespace.
	 */
	public static boolean beginsAsReport(String head) {
		return ShutdownRecord.SCHEMA.equals(ReportJson.firstMember(head, "schema"));
	}

	/**
	 * Reads a report's JSON text; never throws.
	 * @param text any text
	 * @return the record, or why the text is not one
	 */
	public static Result read(String text) {
		Object parsed;
		try {
			parsed = ReportJson.parse(text);
		}
		catch (RuntimeException | StackOverflowError ex) {
			return new Rejected("not valid JSON (" + ex.getMessage() + ")");
		}
		if (!(parsed instanceof Map<?, ?> map)) {
			return new Rejected("not a shutdown report (no schema \"" + ShutdownRecord.SCHEMA + "\")");
		}
		return read(map);
	}

	/**
	 * Reads a report's fields, as {@link #fields(ShutdownRecord)} gives them or a JSON
	 * parser reads them (numbers of any integral type); never throws.
	 * @param fields the fields
	 * @return the record, or why the fields are not one
	 */
	public static Result read(Map<?, ?> fields) {
		if (!ShutdownRecord.SCHEMA.equals(fields.get("schema"))) {
			return new Rejected("not a shutdown report (no schema \"" + ShutdownRecord.SCHEMA + "\")");
		}
		try {
			return new Read(record(fields));
		}
		catch (RuntimeException ex) {
			// Every field is checked for its type below; this only keeps the promise
			// never to throw.
			return new Rejected("unreadable shutdown report (" + ex + ")");
		}
	}

	private static ShutdownRecord record(Map<?, ?> map) {
		Map<?, ?> trigger = (map.get("trigger") instanceof Map<?, ?> value) ? value : Map.of();
		String component = text(trigger.get("component"));
		ShutdownRecord.RecordBuilder builder = ShutdownRecord
			.builder(new ShutdownTrigger(label(ShutdownReason.class, ShutdownReason::label, trigger.get("reason")),
					(component != null) ? component : "", text(trigger.get("detail"))))
			.process(number(map.get("sequence"), 0), text(map.get("service")), text(map.get("run")),
					number(map.get("pid"), 0), text(map.get("jvm")), text(map.get("applicationVersion")))
			.initiatedAt(instant(map.get("initiatedAt")))
			.state(label(ShutdownRecord.State.class, ShutdownRecord.State::label, map.get("state")))
			.lastStep(text(map.get("lastStep")));
		List<StepReport> steps = new ArrayList<>();
		for (Map<?, ?> step : maps(map.get("steps"))) {
			String name = text(step.get("name"));
			if (name != null) {
				ShutdownStep kind = (step.get("kind") != null)
						? label(ShutdownStep.class, ShutdownStep::label, step.get("kind")) : kindOf(name);
				steps.add(new StepReport(kind, name, millis(step.get("startMs")), millis(step.get("durationMs")),
						label(StepResult.class, StepResult::label, step.get("result"))));
			}
		}
		List<ComponentReport> components = new ArrayList<>();
		for (Map<?, ?> entry : maps(map.get("components"))) {
			String name = text(entry.get("name"));
			if (name != null) {
				Long start = boxed(entry.get("stopStartMs"));
				components.add(new ComponentReport(name,
						label(Tier.class, (tier) -> tier.name().toLowerCase(Locale.ROOT), entry.get("tier")),
						(int) number(entry.get("phase"), 0), label(Outcome.class, Outcome::label, entry.get("outcome")),
						(start != null) ? Duration.ofMillis(start) : null, millis(entry.get("durationMs")),
						cuts(entry.get("cut"))));
			}
		}
		Long exitCode = boxed(map.get("exitCode"));
		Long elapsed = boxed(map.get("elapsedMs"));
		return builder.steps(steps)
			.components(components, Boolean.TRUE.equals(map.get("componentsTruncated")))
			.exitCode((exitCode != null && exitCode == exitCode.intValue()) ? exitCode.intValue() : null)
			.clean((map.get("clean") instanceof Boolean clean) ? clean : null)
			.elapsed((elapsed != null) ? Duration.ofMillis(elapsed) : null)
			.failedSteps(texts(map.get("failedSteps")))
			.unfinishedWork(unfinishedWork(map.get("unfinishedWork")))
			.failedRequests(boxed(map.get("failedRequests")))
			.diagnostics(text(map.get("diagnostics")))
			.completedAt(instant(map.get("completedAt")))
			.build();
	}

	/**
	 * Version 2's objects, and version 1's {@code "component: work"} strings: split at
	 * the first separator, since the work's own text may hold one.
	 */
	private static List<UnfinishedWork> unfinishedWork(@Nullable Object value) {
		List<UnfinishedWork> work = new ArrayList<>();
		if (value instanceof List<?> list) {
			for (Object item : list) {
				if (item instanceof Map<?, ?> entry && text(entry.get("component")) != null
						&& text(entry.get("work")) != null) {
					work.add(new UnfinishedWork(text(entry.get("component")), text(entry.get("work"))));
				}
				else if (item instanceof String text) {
					int separator = text.indexOf(VERSION_1_SEPARATOR);
					work.add((separator < 0) ? new UnfinishedWork("", text) : new UnfinishedWork(
							text.substring(0, separator), text.substring(separator + VERSION_1_SEPARATOR.length())));
				}
			}
		}
		return work;
	}

	/**
	 * Version 2's objects, and version 1's strings, where the ceiling's began with what
	 * cut them.
	 */
	private static List<Cut> cuts(@Nullable Object value) {
		List<Cut> cuts = new ArrayList<>();
		if (value instanceof List<?> list) {
			for (Object item : list) {
				if (item instanceof Map<?, ?> entry && text(entry.get("work")) != null) {
					cuts.add(new Cut(text(entry.get("work")), Boolean.TRUE.equals(entry.get("byCeiling"))));
				}
				else if (item instanceof String text) {
					cuts.add(Cut.parse(text));
				}
			}
		}
		return cuts;
	}

	/**
	 * A version 1 step's kind, which every step name begins with; the longest label wins.
	 */
	private static ShutdownStep kindOf(String name) {
		ShutdownStep found = ShutdownStep.UNKNOWN;
		for (ShutdownStep kind : ShutdownStep.values()) {
			if (kind != ShutdownStep.UNKNOWN && name.startsWith(kind.label())
					&& kind.label().length() > found.label().length()) {
				found = kind;
			}
		}
		return found;
	}

	/** The constant with this label; the enum's {@code UNKNOWN} for any other value. */
	private static <E extends Enum<E>> E label(Class<E> type, Function<E, String> label, @Nullable Object value) {
		E unknown = Enum.valueOf(type, "UNKNOWN");
		for (E constant : type.getEnumConstants()) {
			if (constant != unknown && label.apply(constant).equals(value)) {
				return constant;
			}
		}
		return unknown;
	}

	private static @Nullable Instant instant(@Nullable Object value) {
		if (value instanceof String text) {
			try {
				return Instant.parse(text);
			}
			catch (DateTimeParseException ex) {
				return null;
			}
		}
		return null;
	}

	private static Duration millis(@Nullable Object value) {
		return Duration.ofMillis(number(value, 0));
	}

	private static List<String> texts(@Nullable Object value) {
		List<String> texts = new ArrayList<>();
		if (value instanceof List<?> list) {
			for (Object item : list) {
				if (item instanceof String text) {
					texts.add(text);
				}
			}
		}
		return texts;
	}

	private static @Nullable String text(@Nullable Object value) {
		return (value instanceof String text) ? text : null;
	}

	private static long number(@Nullable Object value, long absent) {
		Long boxed = boxed(value);
		return (boxed != null) ? boxed : absent;
	}

	/**
	 * An integral number, whatever its boxed type ({@link #fields(ShutdownRecord)} holds
	 * some as {@link Integer}); {@code null} for anything else.
	 */
	private static @Nullable Long boxed(@Nullable Object value) {
		if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
			return ((Number) value).longValue();
		}
		return null;
	}

	private static List<Map<?, ?>> maps(@Nullable Object value) {
		List<Map<?, ?>> maps = new ArrayList<>();
		if (value instanceof List<?> list) {
			for (Object element : list) {
				if (element instanceof Map<?, ?> map) {
					maps.add(map);
				}
			}
		}
		return maps;
	}

	/** What reading a text or fields gave. */
	public sealed interface Result permits Read, Rejected {

	}

	/**
	 * A report.
	 *
	 * @param record the record read
	 */
	public record Read(ShutdownRecord record) implements Result {
	}

	/**
	 * Not a report, and why, in words safe to log (never the file's content).
	 *
	 * @param reason why
	 */
	public record Rejected(String reason) implements Result {
	}

}
