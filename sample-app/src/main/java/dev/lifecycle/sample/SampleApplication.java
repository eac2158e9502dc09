package dev.lifecycle.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * An event-ingestion service built on the Lifecycle starter: {@code POST /events} appends
 * to a durable SQLite log, a pipeline aggregates it into per-key counts
 * ({@code GET /counts}) with checkpoints, and on shutdown a handler takes a final
 * checkpoint and a backup. Every acknowledged event is counted exactly once after a
 * restart, whether the process was stopped or killed.
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}
