package dev.lifecycle.autoconfigure;

/**
 * Lifecycle's Micrometer series. Their histogram buckets can also be set with Spring
 * Boot's management.metrics.distribution.slo.lifecycle.component.shutdown.duration, which
 * wins over Lifecycle's defaults.
 *
 * <p>
 * The {@code lifecycle.metrics.*} group of {@link LifecycleManagerProperties}.
 */
public class LifecycleMetricsProperties {

	/**
	 * Whether lifecycle_component_shutdown_duration_seconds publishes histogram buckets
	 * (12 by default, from 50ms to 5m) unless management.metrics.distribution sets its
	 * own. Without them it publishes only its count, sum and max.
	 */
	private boolean histogram = true;

	/**
	 * Whether a shutdown's metrics are pushed to Spring Boot's Pushgateway (when
	 * management.prometheus.metrics.export.pushgateway.enabled is true) at its start, at
	 * its end and before a ceiling halt, so Prometheus sees every shutdown complete or
	 * not.
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
