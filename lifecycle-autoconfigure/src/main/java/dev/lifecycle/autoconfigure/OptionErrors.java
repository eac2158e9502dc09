package dev.lifecycle.autoconfigure;

import java.util.Map;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;
import org.jspecify.annotations.Nullable;

/**
 * Reports an option the engine rejected against the setting that fixes it: the
 * {@code lifecycle.*} property of a manager option, the
 * {@code lifecycle.components.<name>.*} property of a component option (or Spring's
 * property when the value came from Spring), or a setting the caller names. The rules
 * live in the engine only; this reads the error's kind and limit, never its message.
 */
@Internal
public final class OptionErrors {

	/**
	 * Spring's property whose value adopted beans and the web server's closing steps get
	 * as their budget.
	 */
	public static final String SPRING_PHASE_TIMEOUT = "spring.lifecycle.timeout-per-shutdown-phase";

	/** The property behind each manager option of the engine. */
	private static final Map<String, String> MANAGER_PROPERTIES = Map.of("globalShutdownTimeout",
			"lifecycle.global-shutdown-timeout", "healthPollInterval", "lifecycle.health-poll-interval", "drainDelay",
			"lifecycle.drain-delay", "preStopFile", "lifecycle.pre-stop.path", "shutdownReports",
			"lifecycle.run-marker.reports", "drainQuietPeriod", "lifecycle.drain-quiet-period", "drainMinimum",
			"lifecycle.drain-minimum", "runMarker", "lifecycle.run-marker.path", "incompleteExitCode",
			"lifecycle.exit-code.incomplete");

	/** What a good value of each manager option looks like, to follow "Set it to ...". */
	private static final Map<String, String> MANAGER_ADVICE = Map.of("globalShutdownTimeout",
			"such as 60s, longer than the drain delay plus the slowest drain and below Kubernetes' "
					+ "terminationGracePeriodSeconds",
			"healthPollInterval", "such as 5s, shorter than the smallest liveness deadline", "drainDelay",
			"0s (no delay) or more, shorter than 'lifecycle.global-shutdown-timeout'", "drainQuietPeriod",
			"such as 1s, or remove it", "drainMinimum", "between 0s and 'lifecycle.drain-delay'", "shutdownReports",
			"0 (no reports) or more, such as 5", "incompleteExitCode",
			"such as 75 (the default) or 0, and not a code that means something else (see the manual's table of "
					+ "exit codes)");

	/** The property name of each component option whose name differs. */
	private static final Map<String, String> DASHED = Map.of("gracefulShutdown", "graceful-shutdown",
			"livenessDeadline", "liveness-deadline", "stallThreshold", "stall-threshold");

	private OptionErrors() {
	}

	/**
	 * Reports an option of the manager against its {@code lifecycle.*} property.
	 * @param ex what the engine rejected (an option of the manager, not of a component)
	 * @return the exception to fail the start with
	 */
	public static InvalidLifecycleConfigurationException manager(InvalidOptionException ex) {
		String problem = ex.problem();
		for (Map.Entry<String, String> option : MANAGER_PROPERTIES.entrySet()) {
			// The engine names the other option of a conflict as it knows it.
			problem = problem.replace(option.getKey(), "'" + option.getValue() + "'");
		}
		String property = MANAGER_PROPERTIES.getOrDefault(ex.option(), ex.option());
		String advice = MANAGER_ADVICE.get(ex.option());
		String fix = switch (ex.kind()) {
			case TOO_SMALL ->
				"Set '" + property + "' to at least " + ex.limit() + ((advice != null) ? ", " + advice : "") + ".";
			case TOO_LARGE -> ex.option().equals("incompleteExitCode")
					? "Set '" + property + "' to at most " + ex.limit() + ", " + advice + "."
					: atMost(property, ex.limit());
			case CONFLICT -> ex.option().equals("drainDelay")
					? "Lower 'lifecycle.drain-delay' or raise 'lifecycle.global-shutdown-timeout': the ceiling bounds "
							+ "the drain delay."
					: "Set '" + property + "' " + ((advice != null) ? advice : "consistently with the options it names")
							+ ".";
			case NOT_ABSOLUTE -> "Set '" + property + "' to an absolute path, such as /tmp/shutdown, and create that "
					+ "file in the preStop hook; or set 'lifecycle.pre-stop.enabled=false'.";
			case INVALID -> switch (ex.option()) {
				case "preStopFile" -> "Point 'lifecycle.pre-stop.path' at a path of its own, such as /tmp/shutdown, "
						+ "that the preStop hook creates empty (touch /tmp/shutdown); or set "
						+ "'lifecycle.pre-stop.enabled=false'.";
				case "runMarker" -> "Point 'lifecycle.run-marker.path' at a file of its own that nothing else uses "
						+ "(the default is lifecycle-<service>.running in java.io.tmpdir), or set "
						+ "'lifecycle.run-marker.enabled=false'.";
				case "incompleteExitCode" -> "Set '" + property + "' to a code of its own, " + advice + ".";
				default -> "Correct '" + property + "'.";
			};
			case REQUIRED, NOT_ALLOWED -> "Correct '" + property + "'.";
		};
		return new InvalidLifecycleConfigurationException(property, problem, fix);
	}

	/**
	 * Reports an option of a component against the setting its value came from: Spring's
	 * {@code spring.lifecycle.timeout-per-shutdown-phase} when Spring gave it, else
	 * {@code lifecycle.components.<name>.<option>}, which overrides the annotation and
	 * code too.
	 * @param ex what the engine rejected
	 * @param resolved the component's options and their origins, or {@code null} when
	 * unknown (a registration from code the failure analyzer reports)
	 * @return the exception to fail the start with
	 */
	public static InvalidLifecycleConfigurationException component(InvalidOptionException ex,
			ComponentOverrides.@Nullable Resolved resolved) {
		String component = ex.component();
		String prefix = "lifecycle.components." + component + ".";
		String property = prefix + DASHED.getOrDefault(ex.option(), ex.option());
		ComponentOverrides.Origin origin = (resolved != null) ? resolved.origins().get(ex.option()) : null;
		if (origin == ComponentOverrides.Origin.SPRING && ex.option().equals("gracefulShutdown")) {
			InvalidLifecycleConfigurationException spring = setting(ex, SPRING_PHASE_TIMEOUT);
			return new InvalidLifecycleConfigurationException(SPRING_PHASE_TIMEOUT, spring.getProblem(),
					spring.getAction() + " Or give component '" + component + "' its own budget with '" + property
							+ "'.");
		}
		String tierFix = " or set '" + prefix + "tier=standard'.";
		String fix = switch (ex.kind()) {
			case TOO_SMALL -> "Set '" + property + "' (or the matching @ManagedComponent attribute or option in code) "
					+ "to at least " + ex.limit()
					+ ((ex.option().equals("stallThreshold")) ? "" : ", or leave it unset") + ".";
			case TOO_LARGE -> atMost(property, ex.limit()) + " (Or lower the matching @ManagedComponent attribute or "
					+ "option in code.)";
			case REQUIRED ->
				"Set '" + property + "' (or @ManagedComponent(livenessDeadline)), for example 10s," + tierFix;
			case NOT_ALLOWED -> switch (ex.option()) {
				case "livenessDeadline" -> "Remove the liveness deadline of component '" + component + "' (property, "
						+ "@ManagedComponent(livenessDeadline) or code)," + tierFix;
				case "gracefulShutdown" -> "Remove the graceful shutdown budget of component '" + component
						+ "' (property, @ManagedComponent(gracefulShutdown) or code)," + tierFix;
				case "finite" -> "Remove finite = true from component '" + component + "' (property, "
						+ "@ManagedComponent(finite) or code)," + tierFix;
				default -> "Correct '" + property + "'.";
			};
			case CONFLICT, NOT_ABSOLUTE, INVALID -> "Correct '" + property + "'.";
		};
		return new InvalidLifecycleConfigurationException(property, ex.problem(), fix);
	}

	/**
	 * Reports an option against a setting the caller names: a property such as
	 * {@code spring.lifecycle.timeout-per-shutdown-phase}, or an annotation attribute.
	 * @param ex what the engine rejected
	 * @param setting the property or annotation attribute whose value it was
	 * @return the exception to fail the start with
	 */
	public static InvalidLifecycleConfigurationException setting(InvalidOptionException ex, String setting) {
		String fix = switch (ex.kind()) {
			case TOO_SMALL -> "Set '" + setting + "' to at least " + ex.limit() + ", such as 30s.";
			case TOO_LARGE -> atMost(setting, ex.limit());
			default -> "Correct '" + setting + "'.";
		};
		return new InvalidLifecycleConfigurationException(setting, ex.problem(), fix);
	}

	private static String atMost(String setting, @Nullable String limit) {
		return "Set '" + setting + "' to at most " + limit + ": Lifecycle accepts nothing longer or larger, and a "
				+ "duration that long already means 'never' in practice.";
	}

}
