package dev.lifecycle.shapes;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import org.springframework.batch.core.configuration.annotation.StepScope;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.support.ListItemReader;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A Spring Batch job as its reference guide writes it: a step-scoped reader (a scoped
 * proxy) sized by a late-bound value. Boot runs it at start-up.
 */
@Configuration(proxyBeanMethods = false)
class ImportJobConfiguration {

	static final List<String> written = new CopyOnWriteArrayList<>();

	@Bean
	Job importJob(JobRepository repository, Step importStep) {
		return new JobBuilder("importJob", repository).start(importStep).build();
	}

	@Bean
	Step importStep(JobRepository repository, ListItemReader<String> importReader) {
		return new StepBuilder("importStep", repository).<String, String>chunk(5)
			.reader(importReader)
			.writer((chunk) -> written.addAll(chunk.getItems()))
			.build();
	}

	@Bean
	@StepScope
	ListItemReader<String> importReader(@Value("#{stepExecution.stepName}") String step) {
		return new ListItemReader<>(IntStream.rangeClosed(1, 12).mapToObj((i) -> step + "-" + i).toList());
	}

}
