package dev.lifecycle.autoconfigure.metrics.pushgateway;

import java.time.Duration;
import java.util.Map;

import dev.lifecycle.autoconfigure.ConditionalOnLifecycleEnabled;
import dev.lifecycle.autoconfigure.component.LifecycleComponentAutoConfiguration;
import dev.lifecycle.autoconfigure.metrics.LifecycleMetricsAutoConfiguration;
import dev.lifecycle.core.LifecycleManager;
import io.prometheus.metrics.exporter.pushgateway.Format;
import io.prometheus.metrics.exporter.pushgateway.PushGateway;
import io.prometheus.metrics.exporter.pushgateway.Scheme;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusProperties;
import org.springframework.boot.micrometer.metrics.export.prometheus.PrometheusPushGatewayManager.ShutdownOperation;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration that pushes a shutdown's metrics to the Pushgateway Spring Boot
 * pushes to ({@code management.prometheus.metrics.export.pushgateway.*}: address, scheme,
 * job, grouping key, credentials and format are Spring Boot's), at the shutdown's first
 * instant, at its end and before a ceiling halt, so that Prometheus sees every shutdown
 * complete or not, however short the process's last seconds. Spring Boot itself pushes
 * only every {@code push-rate} and when its context is destroyed.
 */
@AutoConfiguration(after = { PrometheusMetricsExportAutoConfiguration.class, LifecycleMetricsAutoConfiguration.class,
		LifecycleComponentAutoConfiguration.class })
@ConditionalOnClass({ PushGateway.class, PrometheusRegistry.class, PrometheusProperties.class })
@ConditionalOnLifecycleEnabled
@ConditionalOnBooleanProperty("management.prometheus.metrics.export.pushgateway.enabled")
@ConditionalOnBooleanProperty(name = "lifecycle.metrics.push-on-shutdown", matchIfMissing = true)
@ConditionalOnBean({ PrometheusRegistry.class, LifecycleManager.class })
@EnableConfigurationProperties(PrometheusProperties.class)
public final class LifecyclePushgatewayAutoConfiguration {

	/** Spring Boot's job name when neither the job nor the application name is set. */
	private static final String FALLBACK_JOB = "spring";

	/**
	 * A push must not hold a shutdown long: each connection attempt and answer is
	 * bounded.
	 */
	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private static final Log logger = LogFactory.getLog(LifecyclePushgatewayAutoConfiguration.class);

	@Bean
	@ConditionalOnMissingBean(name = "lifecyclePushgatewayShutdownPublisher")
	PushgatewayShutdownPublisher lifecyclePushgatewayShutdownPublisher(PrometheusRegistry registry,
			PrometheusProperties prometheusProperties, LifecycleManager manager, Environment environment) {
		PrometheusProperties.Pushgateway properties = prometheusProperties.getPushgateway();
		String job = (properties.getJob() != null) ? properties.getJob()
				: environment.getProperty("spring.application.name", FALLBACK_JOB);
		Map<String, String> groupingKey = properties.getGroupingKey();
		if (!PushgatewayShutdownPublisher.identifiesTheProcess(groupingKey)) {
			logger.warn("Lifecycle: the Pushgateway grouping key " + groupingKey + " does not name the process, so "
					+ "every instance of job '" + job + "' pushes its shutdown into the same group and overwrites "
					+ "the others'; set management.prometheus.metrics.export.pushgateway.grouping-key.instance="
					+ "${HOSTNAME} (the pod name on Kubernetes)");
		}
		if (properties.getShutdownOperation() == ShutdownOperation.DELETE) {
			logger.warn("Lifecycle: management.prometheus.metrics.export.pushgateway.shutdown-operation=delete "
					+ "removes the group with the shutdown's final counts as the context closes; use none or push "
					+ "to keep completed shutdowns visible");
		}
		PushGateway.Builder builder = PushGateway.builder()
			.address(properties.getAddress())
			.scheme((properties.getScheme() == PrometheusProperties.Pushgateway.Scheme.HTTPS) ? Scheme.HTTPS
					: Scheme.HTTP)
			.format((properties.getFormat() == PrometheusProperties.Pushgateway.Format.TEXT) ? Format.PROMETHEUS_TEXT
					: Format.PROMETHEUS_PROTOBUF)
			.job(job)
			.connectionTimeout(TIMEOUT)
			.readTimeout(TIMEOUT)
			.registry(registry);
		// Spring Boot itself refuses a token together with a user name.
		if (StringUtils.hasText(properties.getToken())) {
			builder.bearerToken(properties.getToken());
		}
		else if (StringUtils.hasText(properties.getUsername())) {
			builder.basicAuth(properties.getUsername(), properties.getPassword());
		}
		groupingKey.forEach(builder::groupingKey);
		return new PushgatewayShutdownPublisher(builder.build(), manager.globalShutdownTimeout());
	}

}
