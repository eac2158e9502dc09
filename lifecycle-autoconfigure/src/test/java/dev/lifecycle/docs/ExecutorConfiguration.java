package dev.lifecycle.docs;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.lifecycle.core.ComponentOptions;
import dev.lifecycle.core.LifecycleManager;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

// tag::executor[]
@Configuration(proxyBeanMethods = false)
class ExecutorConfiguration {

	@Bean(destroyMethod = "") // the engine shuts it down, in its phase
	ExecutorService paymentsExecutor(LifecycleManager manager) {
		return manager.registerExecutor("payments-executor",
				ComponentOptions.defaults().withPhase(15).withGracefulShutdown(Duration.ofSeconds(20)),
				Executors.newFixedThreadPool(4));
	}

}
// end::executor[]
