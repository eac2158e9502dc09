package dev.lifecycle.batchtests;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.launch.JobOperator;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.repository.JobRepository;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ItemProcessor;
import org.springframework.batch.infrastructure.item.ItemWriter;
import org.springframework.batch.infrastructure.item.support.AbstractItemCountingItemStreamItemReader;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * A Spring Batch application with the Lifecycle starter and no code beyond its job, as a
 * user writes it: one chunk-oriented step reading the numbers 1 to
 * {@code batch-test.items} (default 60), each taking {@code batch-test.item-time}
 * (default 30ms) to process, written {@code batch-test.chunk} (default 10) at a time into
 * the table {@code OUTPUT} in the same transaction as the step's progress. Spring Boot's
 * runner launches it with the command line's job parameters. For the tests only,
 * {@code batch-test.stop-fails} makes the first that many {@code JobOperator.stop} calls
 * throw an optimistic-locking failure, as a job's concurrent write does;
 * {@code batch-test.output} names another table (two replicas of one repository);
 * {@code batch-test.hold-file} holds each item while that file exists;
 * {@code batch-test.before-job} and {@code batch-test.after-job} give the job a listener
 * that takes that long in its callback; {@code batch-test.start-delay} makes the start
 * take that long before the job is launched.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class BatchTestApplication {

	private static final Logger logger = LoggerFactory.getLogger(BatchTestApplication.class);

	public static void main(String[] args) {
		SpringApplication.run(BatchTestApplication.class, args);
	}

	@Bean
	Job importJob(JobRepository repository, Step importStep, Environment environment) {
		Duration beforeJob = environment.getProperty("batch-test.before-job", Duration.class, Duration.ZERO);
		Duration afterJob = environment.getProperty("batch-test.after-job", Duration.class, Duration.ZERO);
		return new JobBuilder("importJob", repository).listener(new JobExecutionListener() {
			@Override
			public void beforeJob(JobExecution execution) {
				if (!beforeJob.isZero()) {
					logger.info("batch-test: before job");
					sleep(beforeJob);
				}
			}

			@Override
			public void afterJob(JobExecution execution) {
				if (!afterJob.isZero()) {
					logger.info("batch-test: after job {}", execution.getStatus());
					sleep(afterJob);
				}
			}
		}).start(importStep).build();
	}

	/**
	 * A bean that takes {@code batch-test.start-delay} to create: a start that a signal
	 * can cut before Spring Boot's runner launches the job.
	 */
	@Bean
	Object slowStart(Environment environment) {
		Duration delay = environment.getProperty("batch-test.start-delay", Duration.class, Duration.ZERO);
		if (!delay.isZero()) {
			logger.info("batch-test: starting slowly");
			sleep(delay);
		}
		return new Object();
	}

	private static void sleep(Duration time) {
		try {
			Thread.sleep(time.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Bean
	Step importStep(JobRepository repository, PlatformTransactionManager transactionManager, JdbcTemplate jdbc,
			Environment environment) {
		int items = environment.getProperty("batch-test.items", Integer.class, 60);
		int chunk = environment.getProperty("batch-test.chunk", Integer.class, 10);
		Duration itemTime = environment.getProperty("batch-test.item-time", Duration.class, Duration.ofMillis(30));
		String output = environment.getProperty("batch-test.output", "OUTPUT").replaceAll("[^A-Z_]", "");
		String holdFile = environment.getProperty("batch-test.hold-file");
		Duration afterStep = environment.getProperty("batch-test.after-step", Duration.class, Duration.ZERO);
		Path hold = (holdFile != null) ? Path.of(holdFile) : null;
		jdbc.execute("CREATE TABLE IF NOT EXISTS " + output + " (ITEM INT NOT NULL)");
		ItemProcessor<Integer, Integer> processor = (item) -> {
			if (hold != null && Files.exists(hold)) {
				logger.info("batch-test: holding at item {}", item);
				while (Files.exists(hold)) {
					Thread.sleep(20);
				}
			}
			Thread.sleep(itemTime.toMillis());
			return item;
		};
		ItemWriter<Integer> writer = (written) -> {
			for (Integer item : written) {
				jdbc.update("INSERT INTO " + output + " (ITEM) VALUES (?)", item);
			}
			logger.info("batch-test: wrote items {} to {}", written.getItems().get(0),
					written.getItems().get(written.size() - 1));
		};
		return new StepBuilder("importStep", repository).<Integer, Integer>chunk(chunk)
			.reader(new Numbers(items))
			.processor(processor)
			.writer(writer)
			.transactionManager(transactionManager)
			.listener(new StepExecutionListener() {
				@Override
				public ExitStatus afterStep(StepExecution execution) {
					if (!afterStep.isZero()) {
						logger.info("batch-test: after step, {} items written", execution.getWriteCount());
						sleep(afterStep);
					}
					return null;
				}
			})
			.build();
	}

	@Bean
	static BeanPostProcessor stopFailures(Environment environment) {
		int failures = environment.getProperty("batch-test.stop-fails", Integer.class, 0);
		AtomicInteger left = new AtomicInteger(failures);
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (failures == 0 || !(bean instanceof JobOperator operator)) {
					return bean;
				}
				return Proxy.newProxyInstance(BatchTestApplication.class.getClassLoader(),
						new Class<?>[] { JobOperator.class }, (proxy, method, arguments) -> {
							if (method.getName().equals("stop") && left.getAndDecrement() > 0) {
								logger.info("batch-test: JobOperator.stop throws");
								throw new OptimisticLockingFailureException("batch-test: a concurrent write");
							}
							try {
								return method.invoke(operator, arguments);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}
		};
	}

	/**
	 * Reads 1 to n, restartable: its position is saved with each chunk and resumed on a
	 * restart.
	 */
	static final class Numbers extends AbstractItemCountingItemStreamItemReader<Integer> {

		private final int count;

		private int next;

		Numbers(int count) {
			this.count = count;
			setName("numbers");
		}

		@Override
		protected Integer doRead() {
			return (this.next < this.count) ? ++this.next : null;
		}

		@Override
		protected void doOpen() {
			this.next = 0;
		}

		@Override
		protected void doClose() {
		}

		@Override
		protected void jumpToItem(int itemIndex) {
			this.next = itemIndex;
		}

	}

}
