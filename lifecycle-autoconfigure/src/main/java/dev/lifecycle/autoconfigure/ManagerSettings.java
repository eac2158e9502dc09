package dev.lifecycle.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.InvalidOptionException;
import dev.lifecycle.core.LifecycleManager;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * The manager-wide settings, resolved from {@link LifecycleManagerProperties} and the
 * environment. The engine checks the values, and {@link OptionErrors} reports what it
 * rejects against the property that fixes it, so every rule has one home.
 *
 * @param serviceName the {@code service_name} label
 * @param globalShutdownTimeout the ceiling on a shutdown
 * @param drainDelay how long to keep serving after readiness turned DOWN
 * @param healthPollInterval the health monitor's period
 * @param preStopFile the pre-stop file, or {@code null} when disabled (by default it is
 * enabled only on Kubernetes or when a path is set)
 * @param runMarker the run marker, or {@code null} when disabled
 * @param shutdownReports how many shutdown reports to keep next to the run marker
 * @param applicationVersion {@code spring.application.version}, or {@code null}
 * @param drainQuietPeriod the adaptive drain's quiet period, or {@code null} for a fixed
 * delay
 * @param drainMinimum the adaptive drain's minimum
 * @param incompleteExitCode the exit code of a shutdown that left work for a later run
 */
@Internal
public record ManagerSettings(String serviceName, Duration globalShutdownTimeout, Duration drainDelay,
		Duration healthPollInterval, @Nullable Path preStopFile, @Nullable Path runMarker, int shutdownReports,
		@Nullable String applicationVersion, @Nullable Duration drainQuietPeriod, Duration drainMinimum,
		int incompleteExitCode) {

	/**
	 * The drain delay on Kubernetes, long enough for endpoint controllers and kube-proxy
	 * to catch up.
	 */
	static final Duration KUBERNETES_DRAIN_DELAY = Duration.ofSeconds(5);

	/** The pre-stop file when none is set. */
	static final String DEFAULT_PRE_STOP_FILE = "/tmp/shutdown";

	/**
	 * Resolves and checks the settings.
	 * @throws InvalidLifecycleConfigurationException naming the first invalid property
	 */
	public static ManagerSettings of(LifecycleManagerProperties properties, Environment environment) {
		String serviceName = serviceName(properties, environment);
		Duration globalTimeout = properties.getGlobalShutdownTimeout();
		ManagerSettings settings = new ManagerSettings(serviceName, globalTimeout,
				drainDelay(properties, environment, globalTimeout), properties.getHealthPollInterval(),
				preStopFile(properties, environment), runMarker(properties, serviceName),
				properties.getRunMarker().getReports(), environment.getProperty("spring.application.version"),
				properties.getDrainQuietPeriod(), properties.getDrainMinimum(),
				properties.getExitCode().getIncomplete());
		settings.builder();
		return settings;
	}

	/**
	 * The service name when neither {@code lifecycle.service-name} nor
	 * {@code spring.application.name} is set: the name Spring Boot gives such an
	 * application's context.
	 */
	public static final String DEFAULT_SERVICE_NAME = "application";

	/**
	 * The service name: {@code lifecycle.service-name}, else
	 * {@code spring.application.name}, else {@link #DEFAULT_SERVICE_NAME}, so that a
	 * missing name never blocks a start ({@link #usesDefaultServiceName} tells when).
	 */
	public static String serviceName(LifecycleManagerProperties properties, Environment environment) {
		if (StringUtils.hasText(properties.getServiceName())) {
			return properties.getServiceName().trim();
		}
		String applicationName = environment.getProperty("spring.application.name");
		if (StringUtils.hasText(applicationName)) {
			return applicationName.trim();
		}
		return DEFAULT_SERVICE_NAME;
	}

	/** Whether neither property names the service. */
	static boolean usesDefaultServiceName(LifecycleManagerProperties properties, Environment environment) {
		return !StringUtils.hasText(properties.getServiceName())
				&& !StringUtils.hasText(environment.getProperty("spring.application.name"));
	}

	/**
	 * A builder with these settings, checked by the engine: an invalid value fails here,
	 * named by its property. Components, listeners and hooks are added by the caller.
	 * @throws InvalidLifecycleConfigurationException naming the property at fault
	 */
	LifecycleManager.Builder builder() {
		LifecycleManager.Builder builder = LifecycleManager.builder(this.serviceName);
		try {
			builder.globalShutdownTimeout(this.globalShutdownTimeout)
				.drainDelay(this.drainDelay)
				.healthPollInterval(this.healthPollInterval)
				.preStopFile(this.preStopFile)
				.runMarker(this.runMarker)
				.shutdownReports(this.shutdownReports)
				.applicationVersion(this.applicationVersion)
				.drainQuietPeriod(this.drainQuietPeriod, this.drainMinimum)
				.incompleteExitCode(this.incompleteExitCode)
				.validate();
		}
		catch (InvalidOptionException ex) {
			throw OptionErrors.manager(ex);
		}
		return builder;
	}

	private static Duration drainDelay(LifecycleManagerProperties properties, Environment environment,
			Duration globalTimeout) {
		Duration configured = properties.getDrainDelay();
		if (configured == null) {
			// On a laptop Ctrl-C should be instant; only Kubernetes has the
			// endpoint-propagation race.
			Duration delay = (CloudPlatform.getActive(environment) == CloudPlatform.KUBERNETES) ? KUBERNETES_DRAIN_DELAY
					: Duration.ZERO;
			// A ceiling this short leaves no room for the default delay; one set
			// explicitly is checked by the engine.
			return (globalTimeout == null || delay.compareTo(globalTimeout) < 0) ? delay : Duration.ZERO;
		}
		return configured;
	}

	private static @Nullable Path preStopFile(LifecycleManagerProperties properties, Environment environment) {
		LifecyclePreStopProperties preStop = properties.getPreStop();
		boolean enabled = (preStop.getEnabled() != null) ? preStop.getEnabled()
				// Only a pod has a preStop hook; on a laptop two services would share the
				// file.
				: (preStop.getPath() != null || CloudPlatform.getActive(environment) == CloudPlatform.KUBERNETES);
		if (!enabled) {
			return null;
		}
		String path = (preStop.getPath() != null) ? preStop.getPath() : DEFAULT_PRE_STOP_FILE;
		if (!StringUtils.hasText(path)) {
			throw new InvalidLifecycleConfigurationException("lifecycle.pre-stop.path", "must not be blank",
					"Set 'lifecycle.pre-stop.path' to an absolute path, such as /tmp/shutdown, or set "
							+ "'lifecycle.pre-stop.enabled=false'.");
		}
		return Path.of(path);
	}

	private static @Nullable Path runMarker(LifecycleManagerProperties properties, String serviceName) {
		LifecycleRunMarkerProperties marker = properties.getRunMarker();
		if (!marker.isEnabled()) {
			return null;
		}
		if (marker.getPath() == null) {
			// One marker per service, so two services on one host do not see each other's
			// marker.
			String fileName = "lifecycle-" + serviceName.replaceAll("[^A-Za-z0-9._-]", "_") + ".running";
			return Path.of(System.getProperty("java.io.tmpdir"), fileName);
		}
		if (!StringUtils.hasText(marker.getPath())) {
			throw new InvalidLifecycleConfigurationException("lifecycle.run-marker.path", "must not be blank",
					"Set 'lifecycle.run-marker.path' to a file path, remove it to use the default, or set "
							+ "'lifecycle.run-marker.enabled=false'.");
		}
		return Path.of(marker.getPath());
	}

}
