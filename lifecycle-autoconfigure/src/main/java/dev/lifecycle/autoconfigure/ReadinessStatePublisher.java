package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.LifecycleListener;
import dev.lifecycle.core.ShutdownTrigger;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;

/**
 * Turns readiness DOWN through Spring Boot's own {@link ReadinessState#REFUSING_TRAFFIC}
 * at the first instant of a shutdown, before the drain delay, so
 * {@code /actuator/health/readiness} answers 503 while everything still serves. A
 * shutdown can begin before Boot declares the application ready: Boot's later
 * {@link ReadinessState#ACCEPTING_TRAFFIC} is then answered with {@code REFUSING_TRAFFIC}
 * again, heard after {@link ApplicationAvailability} has recorded it, so DOWN is the
 * state that stays.
 */
final class ReadinessStatePublisher
		implements LifecycleListener, ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

	private static final Log logger = LogFactory.getLog(ReadinessStatePublisher.class);

	private final ApplicationContext context;

	private final @Nullable ApplicationAvailability availability;

	private volatile boolean refusing;

	/**
	 * @param availability the availability bean, created before this listener on purpose;
	 * may be {@code null} when the application has none
	 */
	ReadinessStatePublisher(ApplicationContext context, @Nullable ApplicationAvailability availability) {
		this.context = context;
		this.availability = availability;
	}

	@Override
	public void onShutdownInitiated(ShutdownTrigger trigger) {
		this.refusing = true;
		if (this.availability == null || this.availability.getReadinessState() != ReadinessState.REFUSING_TRAFFIC) {
			publishRefusing();
		}
	}

	@Override
	public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
		if (this.refusing && event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
			publishRefusing();
		}
	}

	private void publishRefusing() {
		try {
			AvailabilityChangeEvent.publish(this.context, ReadinessState.REFUSING_TRAFFIC);
		}
		catch (IllegalStateException ex) {
			// The context has already closed: nothing serves traffic any more.
			logger.debug("Lifecycle: could not publish REFUSING_TRAFFIC", ex);
		}
	}

}
