package dev.lifecycle.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The one place a {@link ShutdownRecord}'s fields are spelled: writes it as JSON and
 * reads it back. The reader is total: for any text at all it returns a record or a
 * {@link Rejected} reason, and never throws. A text is a report when it parses and its
 * {@code schema} field says so, whatever its layout; a field of the wrong type is read as
 * absent.
 */
final class ReportCodec {

	private ReportCodec() {
	}

	/**
	 * The report as the file holds it: fields in a fixed order, absent values left out.
	 */
	static String write(ShutdownRecord record) {
		Map<String, @Nullable Object> out = new LinkedHashMap<>();
		out.put("schema", ShutdownRecord.SCHEMA);
		out.put("version", ShutdownRecord.VERSION);
		out.put("sequence", record.sequence());
		out.put("service", record.service());
		out.put("run", record.run());
		out.put("pid", record.pid());
		out.put("jvm", record.jvm());
		out.put("applicationVersion", record.applicationVersion());
		out.put("initiatedAt", record.initiatedAt());
		Map<String, @Nullable Object> trigger = new LinkedHashMap<>();
		trigger.put("reason", record.trigger().reason());
		trigger.put("component", record.trigger().component());
		trigger.put("detail", record.trigger().detail());
		out.put("trigger", trigger);
		out.put("state", (record.state() != null) ? record.state().label() : null);
		out.put("lastStep", record.lastStep());
		List<Map<String, @Nullable Object>> steps = new ArrayList<>();
		for (ShutdownRecord.Step step : record.steps()) {
			Map<String, @Nullable Object> entry = new LinkedHashMap<>();
			entry.put("name", step.name());
			entry.put("startMs", step.startMs());
			entry.put("durationMs", step.durationMs());
			entry.put("result", step.result());
			steps.add(entry);
		}
		out.put("steps", steps);
		List<Map<String, @Nullable Object>> components = new ArrayList<>();
		for (ShutdownRecord.ComponentEntry component : record.components()) {
			Map<String, @Nullable Object> entry = new LinkedHashMap<>();
			entry.put("name", component.name());
			entry.put("tier", component.tier());
			entry.put("phase", component.phase());
			entry.put("outcome", component.outcome());
			entry.put("stopStartMs", component.stopStartMs());
			entry.put("durationMs", component.durationMs());
			if (!component.cut().isEmpty()) {
				entry.put("cut", component.cut());
			}
			components.add(entry);
		}
		out.put("components", components);
		if (record.componentsTruncated()) {
			out.put("componentsTruncated", true);
		}
		putIfPresent(out, "exitCode", record.exitCode());
		putIfPresent(out, "clean", record.clean());
		putIfPresent(out, "elapsedMs", record.elapsedMs());
		if (record.exitCode() != null) {
			out.put("failedSteps", record.failedSteps());
			out.put("unfinishedWork", record.unfinishedWork());
		}
		putIfPresent(out, "failedRequests", record.failedRequests());
		putIfPresent(out, "diagnostics", record.diagnostics());
		putIfPresent(out, "completedAt", record.completedAt());
		return Json.write(out);
	}

	private static void putIfPresent(Map<String, @Nullable Object> map, String key, @Nullable Object value) {
		if (value != null) {
			map.put(key, value);
		}
	}

	/**
	 * Whether a text, whole or cut short, begins as a report does: an object whose first
	 * member is {@code schema} with the report's value, whatever the whitespace.
	 */
	static boolean beginsAsReport(String head) {
		return ShutdownRecord.SCHEMA.equals(Json.firstMember(head, "schema"));
	}

	/** Reads a report; never throws. */
	static Result read(String text) {
		Object parsed;
		try {
			parsed = Json.parse(text);
		}
		catch (RuntimeException | StackOverflowError ex) {
			return new Rejected("not valid JSON (" + ex.getMessage() + ")");
		}
		if (!(parsed instanceof Map<?, ?> map) || !ShutdownRecord.SCHEMA.equals(map.get("schema"))) {
			return new Rejected("not a shutdown report (no schema \"" + ShutdownRecord.SCHEMA + "\")");
		}
		try {
			return new Read(record(map));
		}
		catch (RuntimeException ex) {
			// Every field is checked for its type below; this only keeps the promise
			// never to throw.
			return new Rejected("unreadable shutdown report (" + ex + ")");
		}
	}

	private static ShutdownRecord record(Map<?, ?> map) {
		Map<?, ?> trigger = (map.get("trigger") instanceof Map<?, ?> value) ? value : Map.of();
		String reason = text(trigger.get("reason"));
		List<ShutdownRecord.Step> steps = new ArrayList<>();
		for (Map<?, ?> step : maps(map.get("steps"))) {
			String name = text(step.get("name"));
			if (name != null) {
				steps.add(new ShutdownRecord.Step(name, number(step.get("startMs"), 0),
						number(step.get("durationMs"), 0), text(step.get("result"))));
			}
		}
		List<ShutdownRecord.ComponentEntry> components = new ArrayList<>();
		for (Map<?, ?> component : maps(map.get("components"))) {
			String name = text(component.get("name"));
			if (name != null) {
				components.add(new ShutdownRecord.ComponentEntry(name, text(component.get("tier")),
						number(component.get("phase"), 0), text(component.get("outcome")),
						boxed(component.get("stopStartMs")), number(component.get("durationMs"), 0),
						texts(component.get("cut"))));
			}
		}
		List<String> failedSteps = texts(map.get("failedSteps"));
		List<String> unfinishedWork = texts(map.get("unfinishedWork"));
		Long exitCode = boxed(map.get("exitCode"));
		return new ShutdownRecord(number(map.get("sequence"), 0), text(map.get("service")), text(map.get("run")),
				number(map.get("pid"), 0), text(map.get("jvm")), text(map.get("applicationVersion")),
				text(map.get("initiatedAt")),
				new ShutdownRecord.Trigger((reason != null) ? reason : "unknown", text(trigger.get("component")),
						text(trigger.get("detail"))),
				ShutdownRecord.State.of(text(map.get("state"))), text(map.get("lastStep")), steps, components,
				Boolean.TRUE.equals(map.get("componentsTruncated")),
				(exitCode != null && exitCode == exitCode.intValue()) ? exitCode.intValue() : null,
				(map.get("clean") instanceof Boolean clean) ? clean : null, boxed(map.get("elapsedMs")), failedSteps,
				unfinishedWork, boxed(map.get("failedRequests")), text(map.get("diagnostics")),
				text(map.get("completedAt")));
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
		return (value instanceof Long number) ? number : absent;
	}

	private static @Nullable Long boxed(@Nullable Object value) {
		return (value instanceof Long number) ? number : null;
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

	/** What reading a text gave. */
	sealed interface Result permits Read, Rejected {

	}

	/** A report. */
	record Read(ShutdownRecord record) implements Result {
	}

	/** Not a report, and why, in words safe to log (never the file's content). */
	record Rejected(String reason) implements Result {
	}

}
