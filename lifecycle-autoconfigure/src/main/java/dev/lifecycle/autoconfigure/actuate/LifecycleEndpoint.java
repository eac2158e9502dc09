package dev.lifecycle.autoconfigure.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.lifecycle.autoconfigure.ComponentLedger;
import dev.lifecycle.autoconfigure.InternalHooks;
import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.ComponentState;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.HealthStatus;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.PreviousRun;
import dev.lifecycle.core.ReportCodec;
import dev.lifecycle.core.ShutdownRecord;
import dev.lifecycle.core.ShutdownReport;
import dev.lifecycle.core.ShutdownTrigger;
import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code lifecycle} actuator endpoint: every component (phase, tier, state, health,
 * effective options with where each came from), Lifecycle's hooks into server and Spring
 * internals with their state, and, once a shutdown has begun, its trigger and report,
 * laid out as the shutdown report file lays it out (by the same {@link ReportCodec}).
 * Read-only by construction (no write or delete operation), because no HTTP request may
 * start a shutdown; like every endpoint but {@code health}, exposed over HTTP only when
 * {@code management.endpoints.web.exposure.include} names it.
 */
@Endpoint(id = "lifecycle", defaultAccess = Access.READ_ONLY)
public final class LifecycleEndpoint {

	private final LifecycleManager manager;

	private final @Nullable ComponentLedger origins;

	private final @Nullable InternalHooks hooks;

	/**
	 * Creates the endpoint.
	 * @param manager the manager to describe
	 */
	public LifecycleEndpoint(LifecycleManager manager) {
		this(manager, null);
	}

	/**
	 * @param origins where each component's options came from, or {@code null} when
	 * unknown
	 */
	public LifecycleEndpoint(LifecycleManager manager, @Nullable ComponentLedger origins) {
		this(manager, origins, null);
	}

	/**
	 * @param origins where each component's options came from, or {@code null} when
	 * unknown
	 * @param hooks Lifecycle's hooks into server and Spring internals, or {@code null}
	 * when unknown
	 */
	public LifecycleEndpoint(LifecycleManager manager, @Nullable ComponentLedger origins,
			@Nullable InternalHooks hooks) {
		this.manager = manager;
		this.origins = origins;
		this.hooks = hooks;
	}

	/**
	 * Describes the whole lifecycle.
	 * @return the description
	 */
	@ReadOperation
	public LifecycleDescriptor lifecycle() {
		ShutdownTrigger trigger = this.manager.trigger().orElse(null);
		ShutdownReport report = this.manager.report().orElse(null);
		String status = (report != null) ? "TERMINATED" : (trigger != null) ? "SHUTTING_DOWN" : "RUNNING";
		List<ComponentDescriptor> components = this.manager.components().stream().map(this::describe).toList();
		Map<String, Object> shutdown = (trigger != null) ? shutdown(trigger, report) : null;
		PreviousRunDescriptor previous = this.manager.previousRun().map(PreviousRunDescriptor::of).orElse(null);
		List<HookDescriptor> hooks = (this.hooks != null) ? this.hooks.hooks().stream().map(HookDescriptor::of).toList()
				: List.of();
		return new LifecycleDescriptor(this.manager.serviceName(), status, components, shutdown, previous, hooks);
	}

	/**
	 * Describes one component.
	 * @param name the component name
	 * @return the description, or {@code null} (404) for an unknown name
	 */
	@ReadOperation
	public @Nullable ComponentDescriptor component(@Selector String name) {
		return this.manager.components()
			.stream()
			.filter((component) -> component.name().equals(name))
			.findFirst()
			.map(this::describe)
			.orElse(null);
	}

	/**
	 * The previous run's shutdown as an SVG timeline, at
	 * {@code /actuator/lifecycle/previous/timeline}: steps, then one bar per component
	 * coloured by outcome.
	 * @param run {@code previous}
	 * @param view {@code timeline}
	 * @return the SVG, or {@code null} (404) when the previous run left no report
	 */
	@ReadOperation(produces = "image/svg+xml")
	public @Nullable String timeline(@Selector String run, @Selector String view) {
		if (!"previous".equals(run) || !"timeline".equals(view)) {
			return null;
		}
		return this.manager.previousRun().map(PreviousRun::report).map(ShutdownTimeline::svg).orElse(null);
	}

	/**
	 * The shutdown as the report file would say it: under way until the report, then the
	 * report's fields.
	 */
	private Map<String, Object> shutdown(ShutdownTrigger trigger, @Nullable ShutdownReport report) {
		ShutdownRecord.RecordBuilder record = ShutdownRecord.builder(trigger);
		if (report != null) {
			record.report(report);
		}
		return ReportCodec.fields(record.build());
	}

	private ComponentDescriptor describe(ComponentView view) {
		OptionsDescriptor options = (this.origins != null)
				? this.origins.get(view.name()).map(OptionsDescriptor::of).orElse(null) : null;
		return ComponentDescriptor.of(view, options);
	}

	/**
	 * The whole lifecycle.
	 *
	 * @param serviceName the service name
	 * @param status {@code RUNNING}, {@code SHUTTING_DOWN} or {@code TERMINATED}
	 * @param components every component in registration order
	 * @param shutdown the shutdown, or {@code null} while running: its trigger and how
	 * far it got, then its report, under the fields of the shutdown report file (its
	 * schema is in the reference manual)
	 * @param previousRun what the process before this one left: its shutdown report, or
	 * that it ended without one; {@code null} when nothing is known (no run marker kept)
	 * @param hooks Lifecycle's hooks into server and Spring internals, each with its
	 * state
	 */
	public record LifecycleDescriptor(String serviceName, String status, List<ComponentDescriptor> components,
			@Nullable Map<String, Object> shutdown, @Nullable PreviousRunDescriptor previousRun,
			List<HookDescriptor> hooks) implements OperationResponseBody {
	}

	/**
	 * One of Lifecycle's hooks into server or Spring internals, resolved once at start.
	 *
	 * @param name its name, e.g. {@code tomcat.pipelining}
	 * @param target what it reaches into
	 * @param feature the feature it serves
	 * @param state {@code RESOLVED}, {@code MISSED} (the feature is off; a WARN said so)
	 * or {@code NOT_APPLICABLE} (this application does not need it)
	 * @param reason why it missed or does not apply, or {@code null} when resolved
	 */
	public record HookDescriptor(String name, String target, String feature, String state, @Nullable String reason) {

		static HookDescriptor of(InternalHooks.Hook hook) {
			return new HookDescriptor(hook.name(), hook.target(), hook.feature(), hook.state().name(), hook.reason());
		}

	}

	/**
	 * The process that ran before this one.
	 *
	 * @param unclean whether it ended without finishing a shutdown
	 * @param summary the one line the start logged
	 * @param reportFile its shutdown report, or {@code null}
	 * @param report that report's fields, as the file holds them (its schema is in the
	 * reference manual), or {@code null}
	 */
	public record PreviousRunDescriptor(boolean unclean, String summary, @Nullable String reportFile,
			@Nullable Map<String, Object> report) {

		static PreviousRunDescriptor of(PreviousRun previous) {
			return new PreviousRunDescriptor(previous.unclean(), previous.summary(),
					(previous.reportFile() != null) ? previous.reportFile().toString() : null,
					(previous.report() != null) ? ReportCodec.fields(previous.report()) : null);
		}

	}

	/**
	 * One component, as seen now.
	 *
	 * @param name its name
	 * @param tier its tier
	 * @param phase its phase
	 * @param state where it is in its life
	 * @param healthy what {@code isHealthy()} answers
	 * @param health the health monitor's verdict
	 * @param heartbeatAge time since the last heartbeat the monitor saw (ISO-8601), or
	 * {@code null}
	 * @param openCriticalSections critical sections open now
	 * @param details extra detail, such as a critical executor's queue depth
	 * @param options the effective options and where each came from, or {@code null} when
	 * the manager was built without the Spring layer's resolver
	 */
	public record ComponentDescriptor(String name, Tier tier, int phase, ComponentState state, boolean healthy,
			HealthStatus health, @Nullable String heartbeatAge, int openCriticalSections, Map<String, Object> details,
			@Nullable OptionsDescriptor options) implements OperationResponseBody {

		static ComponentDescriptor of(ComponentView view, @Nullable OptionsDescriptor options) {
			return new ComponentDescriptor(view.name(), view.tier(), view.phase(), view.state(), view.healthy(),
					view.healthStatus(), view.heartbeatAge().map(Object::toString).orElse(null),
					view.openCriticalSections(), view.details(), options);
		}

	}

	/**
	 * A component's effective options.
	 *
	 * @param phase its phase
	 * @param tier its tier
	 * @param gracefulShutdown its graceful budget (ISO-8601), or {@code null} for none
	 * (bounded by the global ceiling; an observability component gets 1 s)
	 * @param livenessDeadline its liveness deadline (ISO-8601), or {@code null} when
	 * unmonitored
	 * @param stallThreshold consecutive stalled checks before it counts as stalled
	 * @param adopted whether it is a Spring {@code Lifecycle} bean adopted as a component
	 * @param origins per option, where its value came from: {@code annotation},
	 * {@code property} ({@code lifecycle.components.<name>.*}), {@code spring} (an
	 * adopted bean's Spring phase or
	 * {@code spring.lifecycle.timeout-per-shutdown-phase}), {@code code} or
	 * {@code default}
	 */
	public record OptionsDescriptor(int phase, Tier tier, @Nullable String gracefulShutdown,
			@Nullable String livenessDeadline, int stallThreshold, boolean adopted, Map<String, String> origins) {

		static OptionsDescriptor of(ComponentLedger.Entry entry) {
			ComponentOptions options = entry.options();
			Map<String, String> origins = new LinkedHashMap<>();
			entry.origins().forEach((option, origin) -> origins.put(option, origin.label()));
			return new OptionsDescriptor(options.phase(), options.tier(),
					options.gracefulShutdown().map(Object::toString).orElse(null),
					options.livenessDeadline().map(Object::toString).orElse(null), options.stallThreshold(),
					entry.adopted(), origins);
		}

	}

}
