package dev.lifecycle.sample.plain;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * The "sleep in a preStop hook" recipe of the Spring Boot documentation, emulated inside
 * the plain Spring Boot variant for the benchmarks: on context close the closing thread
 * sleeps before any bean stops, so the web server keeps serving for that long. Spring
 * Boot has already published readiness REFUSING_TRAFFIC when this event arrives, which is
 * how a load balancer checking readiness (HAProxy in the benchmarks) learns of the
 * shutdown; on Kubernetes the endpoint is removed because the pod is terminating, during
 * the hook's sleep and before the SIGTERM.
 */
final class PreStopSleep implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

	private static final Logger logger = LoggerFactory.getLogger(PreStopSleep.class);

	private final Duration sleep;

	private ApplicationContext context;

	PreStopSleep(Duration sleep) {
		this.sleep = sleep;
	}

	@Override
	public void setApplicationContext(ApplicationContext context) {
		this.context = context;
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		// A child context (the actuator's own port) closing first publishes its event
		// here too.
		if (event.getApplicationContext() != this.context) {
			return;
		}
		logger.info("Pre-stop sleep: serving {} more before stopping", this.sleep);
		try {
			Thread.sleep(this.sleep.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
