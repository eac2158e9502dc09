package dev.lifecycle.autoconfigure.web;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.lifecycle.core.ComponentHandle;
import dev.lifecycle.core.PassiveComponent;
import dev.lifecycle.spring.LifecycleExit;
import dev.lifecycle.spring.ManagedComponent;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A web application whose phase-10 component drains until the test releases it, recording
 * the stop order and the exit code Lifecycle hands over.
 *
 * <p>
 * Not API: public only for Lifecycle's own packages.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class DrainingApplication {

	public final List<String> stops = new CopyOnWriteArrayList<>();

	public final List<Integer> exitCodes = new CopyOnWriteArrayList<>();

	public final CountDownLatch slowDraining = new CountDownLatch(1);

	public final CountDownLatch releaseSlow = new CountDownLatch(1);

	// Slow, Fast and HelloController are stereotypes nested in this configuration: Spring
	// registers them as member classes.

	@Bean
	LifecycleExit recordingExit() {
		return this.exitCodes::add;
	}

	@ManagedComponent(value = "slow", phase = 10, gracefulShutdown = "30s")
	static class Slow implements PassiveComponent {

		private final DrainingApplication application;

		Slow(DrainingApplication application) {
			this.application = application;
		}

		@Override
		public void stop(ComponentHandle handle) throws InterruptedException {
			this.application.stops.add("slow");
			this.application.slowDraining.countDown();
			this.application.releaseSlow.await(30, TimeUnit.SECONDS);
		}

	}

	@ManagedComponent(value = "fast", gracefulShutdown = "5s")
	static class Fast implements PassiveComponent {

		private final DrainingApplication application;

		Fast(DrainingApplication application) {
			this.application = application;
		}

		@Override
		public void stop(ComponentHandle handle) {
			this.application.stops.add("fast");
		}

	}

	@RestController
	static class HelloController {

		@GetMapping("/hello")
		String hello() {
			return "hello";
		}

		/**
		 * Reads its body before it answers, as an API that stores what it is sent does.
		 */
		@org.springframework.web.bind.annotation.PostMapping("/hello")
		String helloWithBody(@org.springframework.web.bind.annotation.RequestBody String body) {
			return "hello";
		}

	}

}
