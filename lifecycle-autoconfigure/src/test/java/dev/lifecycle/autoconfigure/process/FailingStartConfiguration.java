package dev.lifecycle.autoconfigure.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With {@code process-test.fail-start=true}, {@link ProcessTestApplication} fails to
 * start after its components started: {@code licenceCheck}, in Spring's last phase,
 * throws from {@code start()}, while {@code client}, an ordinary lifecycle bean in the
 * same phase that started just before it, logs every stop it is told. With
 * {@code process-test.stray-thread=true} as well, {@code scheduler}, in phase 0, starts a
 * non-daemon thread that never ends, as a job scheduler's worker would.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("process-test.fail-start")
class FailingStartConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(FailingStartConfiguration.class);

	@Bean
	SmartLifecycle client() {
		return new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				this.running = true;
			}

			@Override
			public void stop() {
				logger.info("client: stop called");
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

		};
	}

	@Bean
	@ConditionalOnBooleanProperty("process-test.stray-thread")
	SmartLifecycle scheduler() {
		return new SmartLifecycle() {

			private volatile boolean running;

			@Override
			public void start() {
				Thread worker = new Thread(ProcessTestApplication::blockForever, "stray-scheduler-worker");
				worker.start();
				this.running = true;
			}

			@Override
			public void stop() {
				// Like a scheduler that lets its workers finish on their own: they never
				// do.
				this.running = false;
			}

			@Override
			public boolean isRunning() {
				return this.running;
			}

			@Override
			public int getPhase() {
				return 0;
			}

		};
	}

	@Bean
	SmartLifecycle licenceCheck() {
		return new SmartLifecycle() {

			@Override
			public void start() {
				throw new IllegalStateException("licence expired");
			}

			@Override
			public void stop() {
			}

			@Override
			public boolean isRunning() {
				return false;
			}

		};
	}

}
