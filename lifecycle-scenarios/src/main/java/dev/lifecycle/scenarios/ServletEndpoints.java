package dev.lifecycle.scenarios;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The HTTP endpoints on a servlet stack (Tomcat, Jetty): answered on the request's
 * thread.
 */
@RestController
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ServletEndpoints {

	private static final Logger logger = LoggerFactory.getLogger(ServletEndpoints.class);

	private final BackgroundWork work;

	ServletEndpoints(BackgroundWork work) {
		this.work = work;
	}

	@GetMapping("/hello")
	String hello() {
		return "hello";
	}

	@GetMapping("/slow")
	String slow(@RequestParam long millis) throws InterruptedException {
		if (millis >= 1000) {
			logger.info("scenario: slow request of {} ms received", millis);
		}
		Thread.sleep(millis);
		return "slept " + millis + " ms";
	}

	@GetMapping("/async")
	String async(@RequestParam String id) {
		this.work.run(id);
		return "accepted " + id;
	}

}
