package dev.lifecycle.shapes;

import java.util.Locale;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.integration.dsl.IntegrationFlow;

/**
 * A Spring Integration flow: its endpoints are Lifecycle beans Spring Integration starts.
 */
@Configuration(proxyBeanMethods = false)
class IntegrationFlows {

	@Bean
	@Lazy(false)
	IntegrationFlow upper() {
		return (flow) -> flow.<String, String>transform((text) -> text.toUpperCase(Locale.ROOT));
	}

}
