package dev.lifecycle.sample.store;

import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.spring.FinalAction;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The event store bean, and the final action that closes it once every standard component
 * (ingestion and the pipeline) has drained: the writer commits what is queued, the WAL is
 * folded into the main file, and the connections close. The bean's destroy method closes
 * it too (idempotent), for the paths where final actions do not run.
 */
@Configuration(proxyBeanMethods = false)
public class StoreConfiguration {

	@Bean(destroyMethod = "close")
	public EventStore eventStore(SampleProperties properties, MeterRegistry registry) {
		EventStore store = new EventStore(properties.databaseFile(), properties.db().synchronous(),
				properties.db().busyTimeout(), properties.db().rebuildCheckpoint());
		Gauge.builder("sample.store.writable", store, (s) -> s.isWritable() ? 1 : 0)
			.description("1 while writes to the event database commit, 0 while they fail (disk full, database locked)")
			.register(registry);
		return store;
	}

	@Bean
	public StoreCloser storeCloser(EventStore store) {
		return new StoreCloser(store);
	}

	/** Holds the final action. */
	public static class StoreCloser {

		private static final Logger logger = LoggerFactory.getLogger(StoreCloser.class);

		private final EventStore store;

		StoreCloser(EventStore store) {
			this.store = store;
		}

		/** Closes the event store after the standard drain. */
		@FinalAction(name = "close-event-store")
		public void closeEventStore() {
			logger.info("Final action: closing the event store (ingestion and pipeline have drained)");
			this.store.close();
		}

	}

}
