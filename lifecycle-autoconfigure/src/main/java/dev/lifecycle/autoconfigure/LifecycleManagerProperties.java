package dev.lifecycle.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.lifecycle.core.Tier;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration of Lifecycle under the {@code lifecycle} prefix. Values are checked when
 * the application starts; an invalid value fails the start with a message naming the
 * property and the fix. Each group below the prefix ({@code lifecycle.pre-stop.*},
 * {@code lifecycle.signals.*}, …) is a class of its own; a component's overrides are a
 * {@link Component}.
 */
@ConfigurationProperties("lifecycle")
public class LifecycleManagerProperties {

	/**
	 * Whether Lifecycle coordinates the application's start and shutdown. When false,
	 * Lifecycle is inert: its LifecycleManager exists (so beans that inject it or look up
	 * handles still start) but is never started, and nothing else of Lifecycle runs.
	 */
	private boolean enabled = true;

	/**
	 * Name of the service, used as the 'service_name' label on every Lifecycle metric.
	 * Defaults to 'spring.application.name', else 'application' (with a warning at
	 * start-up).
	 */
	private @Nullable String serviceName;

	/**
	 * Hard ceiling on a shutdown, counted from its first instant: it bounds every step up
	 * to the report, and the process's exit. When it fires, the components still running
	 * are logged with their stacks and the exit code is 129. Keep it below Kubernetes'
	 * terminationGracePeriodSeconds.
	 */
	private Duration globalShutdownTimeout = Duration.ofSeconds(60);

	/**
	 * How long to keep serving after readiness turns DOWN and before anything stops, so
	 * that load balancers and Kubernetes endpoints stop routing first. Defaults to 5s
	 * when Spring Boot detects Kubernetes as the cloud platform and 0s elsewhere. Must be
	 * shorter than the global shutdown timeout.
	 */
	private @Nullable Duration drainDelay;

	/**
	 * Makes the drain delay adaptive: it ends once no HTTP request has arrived for this
	 * long (and 'lifecycle.drain-minimum' has passed), the drain delay staying the upper
	 * bound. Unset (the default) keeps the fixed delay.
	 */
	private @Nullable Duration drainQuietPeriod;

	/**
	 * The shortest adaptive drain: long enough for load balancers and Kubernetes
	 * endpoints to see readiness DOWN (about the readiness probe's period times its
	 * failure threshold). Used only with 'lifecycle.drain-quiet-period'; at most the
	 * drain delay.
	 */
	private Duration drainMinimum = Duration.ofSeconds(2);

	/**
	 * Whether HTTP/1.1 responses carry 'Connection: close' from the first instant of a
	 * shutdown, so keep-alive clients reaching the pod through a layer-4 balancer
	 * (kube-proxy pins connections) reconnect to another pod during the drain delay
	 * instead of meeting the stopped server. Behind a layer-7 proxy, which balances each
	 * request anyway, it costs one reconnection per client connection and loses nothing.
	 * Those of unknown length are chunked, so each one's end is marked before its
	 * connection closes.
	 */
	private boolean connectionClose = true;

	/**
	 * Whether HTTP/2 connections receive a graceful GOAWAY (NO_ERROR) from the first
	 * instant of a shutdown, and every HTTP/2 connection that carries a request during
	 * the drain: the streams in flight are served, and the client opens its next
	 * connection elsewhere. HTTP/2's own graceful close, race-free by design (unlike
	 * closing an HTTP/1.1 connection), hence on by default.
	 */
	private boolean goAway = true;

	/**
	 * How often the health monitor checks the components that have a liveness deadline.
	 */
	private Duration healthPollInterval = Duration.ofSeconds(5);

	/**
	 * Whether a shutdown that Lifecycle starts itself (a trapped signal, the pre-stop
	 * file, a component, LifecycleTestSupport) closes the application context once the
	 * sequence has begun. Defaults to false in tests with lifecycle-test, since Spring's
	 * test framework owns the contexts it caches (close them with @DirtiesContext).
	 */
	private boolean closeContext = true;

	/**
	 * Whether the process is halted with exit code 129 when it is still alive shortly
	 * after the global shutdown timeout expired, whatever a bean, destroy method or JVM
	 * shutdown hook is still doing; the stacks of the threads still at work are logged
	 * first. Defaults to false under Spring's test framework, whose JVM must never be
	 * halted.
	 */
	private boolean haltAfterCeiling = true;

	@NestedConfigurationProperty
	private final LifecycleAdoptionProperties adoption = new LifecycleAdoptionProperties();

	@NestedConfigurationProperty
	private final LifecyclePreStopProperties preStop = new LifecyclePreStopProperties();

	@NestedConfigurationProperty
	private final LifecycleSignalsProperties signals = new LifecycleSignalsProperties();

	@NestedConfigurationProperty
	private final LifecycleRunMarkerProperties runMarker = new LifecycleRunMarkerProperties();

	@NestedConfigurationProperty
	private final LifecycleExitCodeProperties exitCode = new LifecycleExitCodeProperties();

	@NestedConfigurationProperty
	private final LifecycleMetricsProperties metrics = new LifecycleMetricsProperties();

	@NestedConfigurationProperty
	private final LifecycleStreamsProperties streams = new LifecycleStreamsProperties();

	/**
	 * Per-component overrides, keyed by component name (the @ManagedComponent value or
	 * the bean name; matched ignoring case and dashes). Values here win over the
	 * annotation's. A name that matches no registered component fails the start.
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

	public LifecycleAdoptionProperties getAdoption() {
		return this.adoption;
	}

	public LifecyclePreStopProperties getPreStop() {
		return this.preStop;
	}

	public LifecycleSignalsProperties getSignals() {
		return this.signals;
	}

	public LifecycleRunMarkerProperties getRunMarker() {
		return this.runMarker;
	}

	public LifecycleExitCodeProperties getExitCode() {
		return this.exitCode;
	}

	public LifecycleMetricsProperties getMetrics() {
		return this.metrics;
	}

	public LifecycleStreamsProperties getStreams() {
		return this.streams;
	}

	public Map<String, Component> getComponents() {
		return this.components;
	}

	/**
	 * Overrides for one component. An unset value keeps the @ManagedComponent attribute,
	 * or for an adopted Spring Lifecycle bean its Spring phase and Spring's per-phase
	 * timeout.
	 */
	public static class Component {

		/**
		 * Whether this Spring Lifecycle bean is adopted as a component. When false it
		 * stops where Spring would stop it, as soon as the context starts closing. Only
		 * for Lifecycle beans that are not @ManagedComponents.
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
		 * Longest gap allowed between heartbeats; enables health monitoring of the
		 * component.
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
		 * Whether the component's work is finite: once every standard component has
		 * completed its finite work, the application shuts down by itself (reason
		 * 'completed', exit 0).
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
