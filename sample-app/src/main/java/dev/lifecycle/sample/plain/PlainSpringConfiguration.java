package dev.lifecycle.sample.plain;

import java.time.Duration;

import dev.lifecycle.sample.ingest.Ingestion;
import dev.lifecycle.sample.pipeline.Pipeline;
import dev.lifecycle.sample.pipeline.PipelineShutdownHandler;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The sample as plain Spring Boot would run it, switched on by
 * {@code lifecycle.enabled=false}: the anchor of the benchmarks against plain Spring Boot
 * ({@code lifecycle-benchmarks/rolling-restart.sh}). Without it the sample would refuse
 * every event once Lifecycle is off, and the comparison would measure nothing. The same
 * ingestion, pipeline and checkpoint-then-backup run from one {@code SmartLifecycle}
 * bean, the way the Spring Boot documentation suggests. With
 * {@code sample.plain.pre-stop-sleep} set, the context sleeps that long on close before
 * anything stops (the documented preStop-sleep recipe, emulated in-process).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "lifecycle.enabled", havingValue = "false")
class PlainSpringConfiguration {

	@Bean
	PlainSpringLifecycle plainSpringLifecycle(Ingestion ingestion, Pipeline pipeline,
			PipelineShutdownHandler shutdownHandler) {
		return new PlainSpringLifecycle(ingestion, pipeline, shutdownHandler);
	}

	@Bean
	@ConditionalOnProperty(name = "sample.plain.pre-stop-sleep")
	PreStopSleep preStopSleep(@Value("${sample.plain.pre-stop-sleep}") Duration sleep) {
		return new PreStopSleep(sleep);
	}

}
