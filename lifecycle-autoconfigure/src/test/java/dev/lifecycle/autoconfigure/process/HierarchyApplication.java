package dev.lifecycle.autoconfigure.process;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;

/**
 * A context hierarchy as {@code SpringApplicationBuilder} builds it: a parent without a
 * web server, with auto-configuration and a {@code store} the child uses, and
 * {@link ProcessTestApplication} as its child, with the web server and the
 * {@code worker}. Both contexts have the same arguments, Lifecycle's included.
 */
public final class HierarchyApplication {

	private static final Logger logger = LoggerFactory.getLogger(HierarchyApplication.class);

	private HierarchyApplication() {
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(Parent.class).child(ProcessTestApplication.class).run(args);
	}

	/**
	 * The parent's configuration; no {@code @Configuration}, so that the child's
	 * component scan leaves it alone.
	 */
	@EnableAutoConfiguration
	static class Parent {

		/** A store the child writes to, adopted at phase 5: it stops after the worker. */
		@Bean
		SmartLifecycle store() {
			return new SmartLifecycle() {

				private volatile boolean running;

				@Override
				public void start() {
					this.running = true;
				}

				@Override
				public void stop() {
					logger.info("store: stopped");
					this.running = false;
				}

				@Override
				public boolean isRunning() {
					return this.running;
				}

				@Override
				public int getPhase() {
					return 5;
				}

			};
		}

	}

}
