package dev.lifecycle.shapes;

import java.util.concurrent.ExecutorService;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;

import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Executors as applications declare them: a primary and a qualified pool, a pool made by
 * a FactoryBean, and a pool wrapped by another library (Micrometer's timed wrapper).
 */
@Configuration(proxyBeanMethods = false)
class Executors {

	@Bean
	@Primary
	ThreadPoolTaskExecutor mainExecutor() {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setThreadNamePrefix("main-");
		executor.setCorePoolSize(2);
		return executor;
	}

	@Bean
	@Qualifier("bulk")
	ThreadPoolTaskExecutor bulkExecutor() {
		ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
		executor.setThreadNamePrefix("bulk-");
		executor.setCorePoolSize(1);
		return executor;
	}

	@Bean
	FactoryBean<ExecutorService> reportPool() {
		return new FactoryBean<>() {

			@Override
			public ExecutorService getObject() {
				return java.util.concurrent.Executors.newFixedThreadPool(2);
			}

			@Override
			public Class<?> getObjectType() {
				return ExecutorService.class;
			}

		};
	}

	@Bean
	ExecutorService meteredPool(MeterRegistry registry) {
		return ExecutorServiceMetrics.monitor(registry, java.util.concurrent.Executors.newFixedThreadPool(2),
				"metered");
	}

}
