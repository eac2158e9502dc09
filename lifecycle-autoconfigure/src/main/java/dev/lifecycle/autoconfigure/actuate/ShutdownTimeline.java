package dev.lifecycle.autoconfigure.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.StepReport;
import dev.lifecycle.core.StepResult;

/**
 * Draws a shutdown report (the {@link ShutdownRecord} the engine writes next to its run
 * marker) as an SVG timeline, readable at a glance: the trigger and result in the title,
 * one grey bar per step of the sequence, then one bar per component from the moment it
 * was told to stop to its end, coloured by outcome (green completed, orange timeout, red
 * died, grey still running when the report was last written).
 */
final class ShutdownTimeline {

	private static final int WIDTH = 1000;

	private static final int LABEL_WIDTH = 260;

	private static final int ROW = 22;

	private static final int TOP = 60;

	private static final int MAX_COMPONENT_ROWS = 200;

	private ShutdownTimeline() {
	}

	static String svg(ShutdownRecord report) {
		List<StepReport> steps = report.steps();
		List<ComponentReport> components = new ArrayList<>(report.components());
		components.removeIf((component) -> component.start() == null);
		if (components.size() > MAX_COMPONENT_ROWS) {
			components = components.subList(0, MAX_COMPONENT_ROWS);
		}
		long span = Math.max(1, (report.elapsed() != null) ? report.elapsed().toMillis() : -1);
		for (StepReport step : steps) {
			span = Math.max(span, step.start().plus(step.duration()).toMillis());
		}
		for (ComponentReport component : components) {
			span = Math.max(span, start(component) + component.duration().toMillis());
		}
		int rows = steps.size() + components.size() + 1;
		int height = TOP + rows * ROW + 40;
		StringBuilder svg = new StringBuilder(4096);
		svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"")
			.append(WIDTH)
			.append("\" height=\"")
			.append(height)
			.append("\" font-family=\"sans-serif\" font-size=\"12\">\n");
		svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
		svg.append("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">")
			.append(escape(title(report)))
			.append("</text>\n");
		svg.append("<text x=\"10\" y=\"42\" fill=\"#555\">").append(escape(subtitle(report))).append("</text>\n");
		axis(svg, span, height);
		int y = TOP;
		for (StepReport step : steps) {
			String colour = (step.result() == StepResult.OK) ? "#9e9e9e" : "#e53935";
			bar(svg, y, step.name(), step.start().toMillis(), step.duration().toMillis(), span, colour,
					step.result().label());
			y += ROW;
		}
		y += ROW / 2;
		for (ComponentReport component : components) {
			Outcome outcome = component.outcome();
			String label = component.name() + " (phase " + component.phase() + ", "
					+ component.tier().name().toLowerCase(Locale.ROOT) + ")";
			bar(svg, y, label, start(component), component.duration().toMillis(), span, colour(outcome),
					(outcome != Outcome.UNKNOWN) ? outcome.label() : "running");
			y += ROW;
		}
		return svg.append("</svg>\n").toString();
	}

	private static long start(ComponentReport component) {
		Duration start = component.start();
		return (start != null) ? start.toMillis() : 0;
	}

	private static String title(ShutdownRecord report) {
		// A signal's component is "signal", the pre-stop file's "prestop": say it once.
		String reason = report.trigger().reason().label();
		if (!reason.equals(report.trigger().component())) {
			reason += " from " + report.trigger().component();
		}
		ShutdownRecord.State state = report.state();
		String outcome = switch (state) {
			case COMPLETED -> Boolean.TRUE.equals(report.clean()) ? "clean" : "not clean";
			case CEILING -> "cut by the global ceiling";
			case FORCED -> "forced by a second signal";
			case IN_PROGRESS, UNKNOWN -> "did not finish (the process was killed)";
		};
		String exit = (report.exitCode() != null) ? ", exit " + report.exitCode() : "";
		return report.service() + ": shutdown (" + reason + "), " + outcome + exit;
	}

	private static String subtitle(ShutdownRecord report) {
		Duration elapsed = report.elapsed();
		String took = (elapsed != null) ? String.format(Locale.ROOT, "took %.1f s", elapsed.toMillis() / 1000.0)
				: "last written after step '" + report.lastStep() + "'";
		return "initiated " + report.initiatedAt() + ", " + took + ", pid " + report.pid();
	}

	private static void axis(StringBuilder svg, long span, int height) {
		long tick = niceTick(span);
		for (long t = 0; t <= span; t += tick) {
			double x = x(t, span);
			svg.append("<line x1=\"")
				.append(format(x))
				.append("\" y1=\"")
				.append(TOP - 6)
				.append("\" x2=\"")
				.append(format(x))
				.append("\" y2=\"")
				.append(height - 30)
				.append("\" stroke=\"#eee\"/>\n");
			svg.append("<text x=\"")
				.append(format(x))
				.append("\" y=\"")
				.append(height - 14)
				.append("\" text-anchor=\"middle\" fill=\"#555\">")
				.append((tick < 1000) ? t + " ms" : String.format(Locale.ROOT, "%.1f s", t / 1000.0))
				.append("</text>\n");
		}
	}

	private static long niceTick(long span) {
		long[] candidates = { 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 30000, 60000 };
		for (long candidate : candidates) {
			if (span / candidate <= 10) {
				return candidate;
			}
		}
		return 120000;
	}

	private static void bar(StringBuilder svg, int y, String label, long start, long duration, long span, String colour,
			String result) {
		svg.append("<text x=\"10\" y=\"")
			.append(y + 15)
			.append("\">")
			.append(escape(truncate(label)))
			.append("</text>\n");
		double x = x(start, span);
		double width = Math.max(2, x(start + duration, span) - x);
		svg.append("<rect x=\"")
			.append(format(x))
			.append("\" y=\"")
			.append(y + 3)
			.append("\" width=\"")
			.append(format(width))
			.append("\" height=\"")
			.append(ROW - 6)
			.append("\" fill=\"")
			.append(colour)
			.append("\"><title>")
			.append(escape(label + ": " + result + ", " + duration + " ms from " + start + " ms"))
			.append("</title></rect>\n");
	}

	private static double x(long millis, long span) {
		return LABEL_WIDTH + (WIDTH - LABEL_WIDTH - 20) * (double) millis / span;
	}

	private static String colour(Outcome outcome) {
		return switch (outcome) {
			case COMPLETED -> "#43a047";
			case TIMEOUT -> "#fb8c00";
			case DIED -> "#e53935";
			case UNKNOWN -> "#bdbdbd";
		};
	}

	private static String truncate(String label) {
		return (label.length() > 40) ? label.substring(0, 39) + "…" : label;
	}

	private static String format(double value) {
		return String.format(Locale.ROOT, "%.1f", value);
	}

	private static String escape(String text) {
		return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
	}

}
