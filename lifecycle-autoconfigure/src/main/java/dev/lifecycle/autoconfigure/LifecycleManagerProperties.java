package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration of Lifecycle under the {@code lifecycle} prefix. Values are checked when the
 * application starts; an invalid value fails the start with a message naming the property and
 * the fix.
 */
@ConfigurationProperties("lifecycle")
public class LifecycleManagerProperties {

	/**
	 * Whether Lifecycle coordinates the application's start and shutdown. When false, Lifecycle
	 * is inert: its LifecycleManager exists (so beans that inject it or look up handles still
	 * start) but is never started, and nothing else of Lifecycle runs.
	 */
	private boolean enabled = true;

	/**
	 * Name of the service, used as the 'service_name' label on every Lifecycle metric. Defaults to
	 * 'spring.application.name'; the start fails when neither is set.
	 */
	private @Nullable String serviceName;

	/**
	 * Hard ceiling on a shutdown, counted from its first instant: it bounds every step up to the
	 * report, and the process's exit. When it fires, the components still running are logged
	 * with their stacks and the exit code is 129. Keep it below Kubernetes'
	 * terminationGracePeriodSeconds.
	 */
	private Duration globalShutdownTimeout = Duration.ofSeconds(60);

	/**
	 * How long to keep serving after readiness turns DOWN and before anything stops, so that load
	 * balancers and Kubernetes endpoints stop routing first. Defaults to 5s when Spring Boot
	 * detects Kubernetes as the cloud platform and 0s elsewhere. Must be shorter than the global
	 * shutdown timeout.
	 */
	private @Nullable Duration drainDelay;

	/**
	 * Makes the drain delay adaptive: it ends once no HTTP request has arrived for this long
	 * (and 'lifecycle.drain-minimum' has passed), the drain delay staying the upper bound. Unset
	 * (the default) keeps the fixed delay.
	 */
	private @Nullable Duration drainQuietPeriod;

	/**
	 * The shortest adaptive drain: long enough for load balancers and Kubernetes endpoints to
	 * see readiness DOWN (about the readiness probe's period times its failure threshold). Used
	 * only with 'lifecycle.drain-quiet-period'; at most the drain delay.
	 */
	private Duration drainMinimum = Duration.ofSeconds(2);

	/**
	 * Whether HTTP/1.1 responses carry 'Connection: close' from the first instant of a shutdown,
	 * so keep-alive clients reaching the pod through a layer-4 balancer (kube-proxy pins
	 * connections) reconnect to another pod during the drain delay instead of meeting the stopped
	 * server. Behind a layer-7 proxy, which balances each request anyway, it costs one reconnection
	 * per client connection and loses nothing. Those of unknown length are chunked, so each one's
	 * end is marked before its connection closes.
	 */
	private boolean connectionClose = true;

	/**
	 * Whether HTTP/2 connections receive a graceful GOAWAY (NO_ERROR) from the first instant of a
	 * shutdown, and every HTTP/2 connection that carries a request during the drain: the streams
	 * in flight are served, and the client opens its next connection elsewhere. HTTP/2's own
	 * graceful close, race-free by design (unlike closing an HTTP/1.1 connection), hence on by
	 * default.
	 */
	private boolean goAway = true;

	/**
	 * How often the health monitor checks the components that have a liveness deadline.
	 */
	private Duration healthPollInterval = Duration.ofSeconds(5);

	/**
	 * Whether a shutdown that Lifecycle starts itself (a trapped signal, the pre-stop file, a
	 * component, LifecycleTestSupport) closes the application context once the sequence has begun.
	 * Defaults to false in tests with lifecycle-test, since Spring's test framework owns the
	 * contexts it caches (close them with @DirtiesContext).
	 */
	private boolean closeContext = true;

	/**
	 * Whether the process is halted with exit code 129 when it is still alive shortly after the
	 * global shutdown timeout expired, whatever a bean, destroy method or JVM shutdown hook is
	 * still doing; the stacks of the threads still at work are logged first. Defaults to false
	 * under Spring's test framework, whose JVM must never be halted.
	 */
	private boolean haltAfterCeiling = true;

	private final Adoption adoption = new Adoption();

	private final PreStop preStop = new PreStop();

	private final Signals signals = new Signals();

	private final RunMarker runMarker = new RunMarker();

	private final Metrics metrics = new Metrics();

	private final Streams streams = new Streams();

	/**
	 * Per-component overrides, keyed by component name (the @ManagedComponent value or the bean
	 * name; matched ignoring case and dashes). Values here win over the annotation's. A name that
	 * matches no registered component fails the start.
	 */
	private final Map<String, Component> components = new LinkedHashMap<>();

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getServiceName() {
		return this.serviceName;
	}

	public void setServiceName(@Nullable String serviceName) {
		this.serviceName = serviceName;
	}

	public Duration getGlobalShutdownTimeout() {
		return this.globalShutdownTimeout;
	}

	public void setGlobalShutdownTimeout(Duration globalShutdownTimeout) {
		this.globalShutdownTimeout = globalShutdownTimeout;
	}

	public @Nullable Duration getDrainDelay() {
		return this.drainDelay;
	}

	public void setDrainDelay(@Nullable Duration drainDelay) {
		this.drainDelay = drainDelay;
	}

	public @Nullable Duration getDrainQuietPeriod() {
		return this.drainQuietPeriod;
	}

	public void setDrainQuietPeriod(@Nullable Duration drainQuietPeriod) {
		this.drainQuietPeriod = drainQuietPeriod;
	}

	public Duration getDrainMinimum() {
		return this.drainMinimum;
	}

	public void setDrainMinimum(Duration drainMinimum) {
		this.drainMinimum = drainMinimum;
	}

	public boolean isConnectionClose() {
		return this.connectionClose;
	}

	public void setConnectionClose(boolean connectionClose) {
		this.connectionClose = connectionClose;
	}

	public boolean isGoAway() {
		return this.goAway;
	}

	public void setGoAway(boolean goAway) {
		this.goAway = goAway;
	}

	public Duration getHealthPollInterval() {
		return this.healthPollInterval;
	}

	public void setHealthPollInterval(Duration healthPollInterval) {
		this.healthPollInterval = healthPollInterval;
	}

	public boolean isCloseContext() {
		return this.closeContext;
	}

	public void setCloseContext(boolean closeContext) {
		this.closeContext = closeContext;
	}

	public boolean isHaltAfterCeiling() {
		return this.haltAfterCeiling;
	}

	public void setHaltAfterCeiling(boolean haltAfterCeiling) {
		this.haltAfterCeiling = haltAfterCeiling;
	}

	public Adoption getAdoption() {
		return this.adoption;
	}

	public PreStop getPreStop() {
		return this.preStop;
	}

	public Signals getSignals() {
		return this.signals;
	}

	public RunMarker getRunMarker() {
		return this.runMarker;
	}

	public Metrics getMetrics() {
		return this.metrics;
	}

	public Streams getStreams() {
		return this.streams;
	}

	public Map<String, Component> getComponents() {
		return this.components;
	}

	/**
	 * Adoption of the context's other Lifecycle beans (listener containers, schedulers, task
	 * executors, your own SmartLifecycle beans) into the shutdown sequence.
	 */
	public static class Adoption {

		/**
		 * Whether every Lifecycle bean that Lifecycle does not run itself becomes a component:
		 * it keeps running through the drain delay and the shutdown handlers, then stops in the
		 * standard drain at its Spring phase. When false, Spring stops those beans as soon as the
		 * context starts closing. Opt a single bean out with
		 * 'lifecycle.components.<bean>.adopt=false'.
		 */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/**
	 * The pre-stop file: Kubernetes' preStop hook creates it ({@code touch /tmp/shutdown}) so the
	 * shutdown starts before SIGTERM, without a {@code sleep} binary in the image.
	 */
	public static class PreStop {

		/**
		 * Whether the appearance of the pre-stop file starts a shutdown. Defaults to true when
		 * Spring Boot detects Kubernetes or 'lifecycle.pre-stop.path' is set, and false elsewhere,
		 * so that services on one laptop never share '/tmp/shutdown'.
		 */
		private @Nullable Boolean enabled;

		/**
		 * Absolute path of the pre-stop file. Setting it switches the watcher on unless
		 * 'lifecycle.pre-stop.enabled' is false. A file already there at start-up is deleted with
		 * a warning, never taken as a shutdown request.
		 */
		private @Nullable String path;

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getPath() {
			return this.path;
		}

		public void setPath(@Nullable String path) {
			this.path = path;
		}

	}

	/**
	 * Process signals and exit codes.
	 */
	public static class Signals {

		/**
		 * Whether Lifecycle handles SIGTERM, SIGINT and SIGHUP and exits the JVM with its exit code (0
		 * clean, 1 failure, 128 forced by a second signal, 129 ceiling). When false, Spring's own
		 * shutdown hook still runs the whole sequence but Lifecycle never calls System.exit.
		 * Defaults to false in tests with lifecycle-test.
		 */
		private boolean trap = true;

		public boolean isTrap() {
			return this.trap;
		}

		public void setTrap(boolean trap) {
			this.trap = trap;
		}

	}

	/**
	 * The run marker: a file that exists while the process runs. Finding it at start-up means
	 * the previous process ended without finishing a shutdown (SIGKILL, OOM kill), which is
	 * counted as lifecycle_shutdown_initiated_total{trigger_component="previous-run",
	 * trigger_reason="unclean"}. On Kubernetes, put it on a volume that outlives a container
	 * restart, such as an emptyDir.
	 */
	public static class RunMarker {

		/**
		 * Whether to keep a run marker and report an unclean previous run.
		 */
		private boolean enabled = true;

		/**
		 * Path of the run marker. Defaults to 'lifecycle-<service-name>.running' in the
		 * 'java.io.tmpdir' directory.
		 */
		private @Nullable String path;

		/**
		 * How many shutdown reports (JSON, written as each shutdown goes) to keep next to the run
		 * marker; 0 writes none. The next start logs a summary of the newest and shows it in the
		 * lifecycle endpoint.
		 */
		private int reports = 5;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable String getPath() {
			return this.path;
		}

		public void setPath(@Nullable String path) {
			this.path = path;
		}

		public int getReports() {
			return this.reports;
		}

		public void setReports(int reports) {
			this.reports = reports;
		}

	}

	/**
	 * Long-lived HTTP responses: server-sent events, streaming and long-polling responses.
	 * Lifecycle completes them cleanly during a shutdown, so they never hold the web server's
	 * graceful shutdown.
	 */
	public static class Streams {

		/**
		 * When open streams are ended (server-sent events, streaming responses, and WebSocket
		 * sessions, closed with 1001 going away): 'drain-end' (when the drain delay ends, once load
		 * balancers route new connections elsewhere) or 'shutdown' (at the first instant of a
		 * shutdown). A stream that starts after that point ends at once.
		 */
		private EndAt endAt = EndAt.DRAIN_END;

		public EndAt getEndAt() {
			return this.endAt;
		}

		public void setEndAt(EndAt endAt) {
			this.endAt = endAt;
		}

		/** When open streams are ended. */
		public enum EndAt {

			/** At the first instant of a shutdown. */
			SHUTDOWN,

			/** When the drain delay ends. */
			DRAIN_END

		}

	}

	/**
	 * Lifecycle's Micrometer series. Their histogram buckets can also be set with Spring Boot's
	 * management.metrics.distribution.slo.lifecycle.component.shutdown.duration, which wins over
	 * Lifecycle's defaults.
	 */
	public static class Metrics {

		/**
		 * Whether lifecycle_component_shutdown_duration_seconds publishes histogram buckets
		 * (12 by default, from 50ms to 5m) unless management.metrics.distribution sets its own.
		 * Without them it publishes only its count, sum and max.
		 */
		private boolean histogram = true;

		/**
		 * Whether a shutdown's metrics are pushed to Spring Boot's Pushgateway (when
		 * management.prometheus.metrics.export.pushgateway.enabled is true) at its start, at its
		 * end and before a ceiling halt, so Prometheus sees every shutdown complete or not.
		 */
		private boolean pushOnShutdown = true;

		public boolean isHistogram() {
			return this.histogram;
		}

		public void setHistogram(boolean histogram) {
			this.histogram = histogram;
		}

		public boolean isPushOnShutdown() {
			return this.pushOnShutdown;
		}

		public void setPushOnShutdown(boolean pushOnShutdown) {
			this.pushOnShutdown = pushOnShutdown;
		}

	}

	/**
	 * Overrides for one component. An unset value keeps the @ManagedComponent attribute, or for an
	 * adopted Spring Lifecycle bean its Spring phase and Spring's per-phase timeout.
	 */
	public static class Component {

		/**
		 * Whether this Spring Lifecycle bean is adopted as a component. When false it stops where
		 * Spring would stop it, as soon as the context starts closing. Only for Lifecycle beans
		 * that are not @ManagedComponents.
		 */
		private @Nullable Boolean adopt;

		/**
		 * Phase of the component: higher phases stop first and start last.
		 */
		private @Nullable Integer phase;

		/**
		 * Tier of the component: standard, observability, advisory or infrastructure.
		 */
		private @Nullable Tier tier;

		/**
		 * How long the component may take to drain once told to stop.
		 */
		private @Nullable Duration gracefulShutdown;

		/**
		 * Longest gap allowed between heartbeats; enables health monitoring of the component.
		 */
		private @Nullable Duration livenessDeadline;

		/**
		 * Consecutive stalled health checks before the component counts as stalled.
		 */
		private @Nullable Integer stallThreshold;

		public @Nullable Boolean getAdopt() {
			return this.adopt;
		}

		public void setAdopt(@Nullable Boolean adopt) {
			this.adopt = adopt;
		}
		/**
		 * Whether the component's work is finite: once every standard component has completed
		 * its finite work, the application shuts down by itself (reason 'completed', exit 0).
		 */
		private @Nullable Boolean finite;

		public @Nullable Integer getPhase() {
			return this.phase;
		}

		public void setPhase(@Nullable Integer phase) {
			this.phase = phase;
		}

		public @Nullable Tier getTier() {
			return this.tier;
		}

		public void setTier(@Nullable Tier tier) {
			this.tier = tier;
		}

		public @Nullable Duration getGracefulShutdown() {
			return this.gracefulShutdown;
		}

		public void setGracefulShutdown(@Nullable Duration gracefulShutdown) {
			this.gracefulShutdown = gracefulShutdown;
		}

		public @Nullable Duration getLivenessDeadline() {
			return this.livenessDeadline;
		}

		public void setLivenessDeadline(@Nullable Duration livenessDeadline) {
			this.livenessDeadline = livenessDeadline;
		}

		public @Nullable Integer getStallThreshold() {
			return this.stallThreshold;
		}

		public void setStallThreshold(@Nullable Integer stallThreshold) {
			this.stallThreshold = stallThreshold;
		}

		public @Nullable Boolean getFinite() {
			return this.finite;
		}

		public void setFinite(@Nullable Boolean finite) {
			this.finite = finite;
		}

	}

}
