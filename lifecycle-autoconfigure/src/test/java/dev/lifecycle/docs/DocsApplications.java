package dev.lifecycle.docs;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * Starts the documentation's examples the way a user's application starts: every
 * auto-configuration on the class path, no web server, and nothing that touches the JVM
 * or the file system (signals, pre-stop file, run marker, ceiling halt).
 */
final class DocsApplications {

	private DocsApplications() {
	}

	static ConfigurableApplicationContext run(WebApplicationType web, Class<?>... sources) {
		return run(web, List.of(), sources);
	}

	static ConfigurableApplicationContext run(WebApplicationType web, List<String> properties, Class<?>... sources) {
		List<String> all = new ArrayList<>(List.of("spring.application.name=orders", "lifecycle.signals.trap=false",
				"lifecycle.pre-stop.enabled=false", "lifecycle.run-marker.enabled=false",
				"lifecycle.halt-after-ceiling=false", "lifecycle.close-context=false", "server.port=0",
				"spring.jmx.enabled=false"));
		all.addAll(properties);
		Class<?>[] withAutoConfiguration = new Class<?>[sources.length + 1];
		withAutoConfiguration[0] = AutoConfigured.class;
		System.arraycopy(sources, 0, withAutoConfiguration, 1, sources.length);
		return new SpringApplicationBuilder(withAutoConfiguration).web(web)
			.registerShutdownHook(false)
			.properties(all.toArray(String[]::new))
			.run();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	static class AutoConfigured {

	}

}
