package dev.lifecycle.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;

import dev.lifecycle.core.LifecycleManager;

import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * The manager-wide settings, resolved from {@link LifecycleProperties} and the environment and
 * checked, so that every invalid value fails with the property's name rather than with the
 * engine's option name.
 *
 * @param serviceName the {@code service_name} label
 * @param globalShutdownTimeout the ceiling on a shutdown
 * @param drainDelay how long to keep serving after readiness turned DOWN
 * @param healthPollInterval the health monitor's period
 * @param preStopFile the pre-stop file, or {@code null} when disabled (by default it is enabled only
 * on Kubernetes or when a path is set)
 * @param runMarker the run marker, or {@code null} when disabled
 */
record LifecycleSettings(String serviceName, Duration globalShutdownTimeout, Duration drainDelay,
		Duration healthPollInterval, Path preStopFile, Path runMarker) {

	/** The drain delay on Kubernetes, long enough for endpoint controllers and kube-proxy to catch up. */
	static final Duration KUBERNETES_DRAIN_DELAY = Duration.ofSeconds(5);

	/** The pre-stop file when none is set. */
	static final String DEFAULT_PRE_STOP_FILE = "/tmp/shutdown";

	/**
	 * Resolves and checks the settings.
	 * @throws InvalidLifecycleConfigurationException naming the first invalid property
	 */
	static LifecycleSettings of(LifecycleProperties properties, Environment environment) {
		String serviceName = serviceName(properties, environment);
		Duration globalTimeout = requirePositive("lifecycle.global-shutdown-timeout",
				properties.getGlobalShutdownTimeout(), "60s",
				"longer than the drain delay plus the slowest drain and below Kubernetes' "
						+ "terminationGracePeriodSeconds");
		Duration pollInterval = requirePositive("lifecycle.health-poll-interval", properties.getHealthPollInterval(),
				"5s", "shorter than the smallest liveness deadline");
		Duration drainDelay = drainDelay(properties, environment, globalTimeout);
		return new LifecycleSettings(serviceName, globalTimeout, drainDelay, pollInterval,
				preStopFile(properties, environment),
				runMarker(properties, serviceName));
	}

	/**
	 * The service name: {@code lifecycle.service-name}, else {@code spring.application.name}.
	 * @throws InvalidLifecycleConfigurationException when neither is set
	 */
	static String serviceName(LifecycleProperties properties, Environment environment) {
		if (StringUtils.hasText(properties.getServiceName())) {
			return properties.getServiceName().trim();
		}
		String applicationName = environment.getProperty("spring.application.name");
		if (StringUtils.hasText(applicationName)) {
			return applicationName.trim();
		}
		throw new InvalidLifecycleConfigurationException("lifecycle.service-name",
				"is not set, and neither is 'spring.application.name'; Lifecycle needs a service name for the "
						+ "'service_name' label of its metrics",
				"Set 'spring.application.name' (or 'lifecycle.service-name' to use a different name for Lifecycle), "
						+ "for example spring.application.name=orders.");
	}

	/** Builds a manager from these settings; components, listeners and metrics are added by the caller. */
	LifecycleManager.Builder builder() {
		return LifecycleManager.builder(this.serviceName)
			.globalShutdownTimeout(this.globalShutdownTimeout)
			.drainDelay(this.drainDelay)
			.healthPollInterval(this.healthPollInterval)
			.preStopFile(this.preStopFile)
			.runMarker(this.runMarker);
	}

	private static Duration drainDelay(LifecycleProperties properties, Environment environment, Duration globalTimeout) {
		Duration configured = properties.getDrainDelay();
		if (configured == null) {
			// On a laptop Ctrl-C should be instant; only Kubernetes has the endpoint-propagation race.
			Duration delay = (CloudPlatform.getActive(environment) == CloudPlatform.KUBERNETES) ? KUBERNETES_DRAIN_DELAY
					: Duration.ZERO;
			// A ceiling this short leaves no room for the default delay; one set explicitly is checked below.
			return (delay.compareTo(globalTimeout) < 0) ? delay : Duration.ZERO;
		}
		if (configured.isNegative()) {
			throw new InvalidLifecycleConfigurationException("lifecycle.drain-delay",
					"must not be negative but was " + configured,
					"Set 'lifecycle.drain-delay' to 0s (no delay) or a positive duration such as 5s.");
		}
		if (configured.compareTo(globalTimeout) >= 0) {
			throw new InvalidLifecycleConfigurationException("lifecycle.drain-delay",
					"(" + configured + ") must be shorter than 'lifecycle.global-shutdown-timeout' (" + globalTimeout
							+ "), which bounds it",
					"Lower 'lifecycle.drain-delay' or raise 'lifecycle.global-shutdown-timeout'.");
		}
		return configured;
	}

	private static Path preStopFile(LifecycleProperties properties, Environment environment) {
		LifecycleProperties.PreStop preStop = properties.getPreStop();
		boolean enabled = (preStop.getEnabled() != null) ? preStop.getEnabled()
				// Only a pod has a preStop hook; on a laptop two services would share the file.
				: (preStop.getPath() != null || CloudPlatform.getActive(environment) == CloudPlatform.KUBERNETES);
		if (!enabled) {
			return null;
		}
		String path = (preStop.getPath() != null) ? preStop.getPath() : DEFAULT_PRE_STOP_FILE;
		if (!StringUtils.hasText(path) || !Path.of(path).isAbsolute()) {
			throw new InvalidLifecycleConfigurationException("lifecycle.pre-stop.path",
					"must be an absolute path but was '" + path + "'",
					"Set 'lifecycle.pre-stop.path' to an absolute path, such as /tmp/shutdown, and create that file "
							+ "in the preStop hook; or set 'lifecycle.pre-stop.enabled=false'.");
		}
		return Path.of(path);
	}

	private static Path runMarker(LifecycleProperties properties, String serviceName) {
		LifecycleProperties.RunMarker marker = properties.getRunMarker();
		if (!marker.isEnabled()) {
			return null;
		}
		if (marker.getPath() == null) {
			// One marker per service, so two services on one host do not see each other's marker.
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

	private static Duration requirePositive(String property, Duration value, String example, String guidance) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw new InvalidLifecycleConfigurationException(property, "must be positive but was " + value,
					"Set '" + property + "' to a positive duration such as " + example + ", " + guidance + ".");
		}
		return value;
	}

}
