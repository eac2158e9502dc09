package dev.lifecycle.autoconfigure.component;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import dev.lifecycle.autoconfigure.TestRunners;
import dev.lifecycle.core.ComponentReport;
import dev.lifecycle.core.ComponentView;
import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.MessageListener;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.kafka.test.utils.ContainerTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real Spring Kafka listener container, adopted at its own Spring phase, against a real
 * KRaft broker in this JVM: it keeps consuming through the drain delay, commits every
 * record's offset exactly once, and a restart processes nothing twice.
 */
class KafkaListenerAdoptionTests {

	private static final String TOPIC = "events";

	private static final String GROUP = "lifecycle-adoption";

	private static EmbeddedKafkaKraftBroker broker;

	private static KafkaProducer<String, String> producer;

	@BeforeAll
	static void startBroker() {
		broker = new EmbeddedKafkaKraftBroker(1, 1, TOPIC);
		broker.afterPropertiesSet();
		Properties properties = new Properties();
		properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
		properties.put(ProducerConfig.ACKS_CONFIG, "all");
		producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
	}

	@AfterAll
	static void stopBroker() {
		if (producer != null) {
			producer.close();
		}
		if (broker != null) {
			broker.destroy();
		}
	}

	@Test
	void recordsProducedBeforeAndDuringTheDrainDelayAreConsumedAndCommittedOnceAndARestartProcessesNoneTwice() {
		List<Processed> firstRun = new CopyOnWriteArrayList<>();
		CommitRecorder.COMMITS.clear();
		runner(firstRun).withPropertyValues("lifecycle.drain-delay=2s").run((context) -> {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			ComponentView container = manager.components()
				.stream()
				.filter((component) -> component.name().equals("eventsContainer"))
				.findFirst()
				.orElseThrow();
			assertThat(container.phase()).isEqualTo(AbstractMessageListenerContainer.DEFAULT_PHASE);
			ContainerTestUtils.waitForAssignment(context.getBean(ConcurrentMessageListenerContainer.class), 1);
			produce(1, 5);
			await().atMost(Duration.ofSeconds(30)).until(() -> firstRun.size() == 5);
			Thread closer = new Thread(context::close, "test-close");
			closer.start();
			await().atMost(Duration.ofSeconds(5)).until(manager::isShutdownInitiated);
			produce(6, 10);
			closer.join(Duration.ofSeconds(60).toMillis());
			ShutdownReport report = manager.report().orElseThrow();
			assertThat(report.component("eventsContainer").map(ComponentReport::outcome)).contains(Outcome.COMPLETED);
			assertThat(report.exitCode()).isZero();
		});
		assertThat(firstRun).extracting(Processed::value)
			.containsExactlyElementsOf(IntStream.rangeClosed(1, 10).mapToObj((i) -> "event-" + i).toList());
		// The second half arrived after the shutdown began, and was still consumed.
		assertThat(firstRun.subList(5, 10)).allMatch(Processed::duringShutdown);
		// Every record's offset committed once: offsets 0..9 commit positions 1..10, no
		// repeats.
		assertThat(CommitRecorder.COMMITS)
			.containsExactlyElementsOf(IntStream.rangeClosed(1, 10).mapToObj(Long::valueOf).toList());

		List<Processed> secondRun = new CopyOnWriteArrayList<>();
		runner(secondRun).run((context) -> {
			ContainerTestUtils.waitForAssignment(context.getBean(ConcurrentMessageListenerContainer.class), 1);
			produce(11, 11);
			await().atMost(Duration.ofSeconds(30)).until(() -> !secondRun.isEmpty());
			context.close();
		});
		assertThat(secondRun).extracting(Processed::value).containsExactly("event-11");
	}

	private static ApplicationContextRunner runner(List<Processed> processed) {
		return TestRunners.lifecycle()
			.withPropertyValues("kafka.bootstrap-servers=" + broker.getBrokersAsString())
			.withBean("processed", ProcessedRecords.class, () -> new ProcessedRecords(processed))
			.withUserConfiguration(ListenerConfiguration.class);
	}

	private static void produce(int from, int to) {
		for (int i = from; i <= to; i++) {
			try {
				producer.send(new ProducerRecord<>(TOPIC, "key", "event-" + i)).get();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	record Processed(String value, long offset, boolean duringShutdown) {
	}

	record ProcessedRecords(List<Processed> list) {
	}

	@Configuration(proxyBeanMethods = false)
	static class ListenerConfiguration {

		@Bean
		ConcurrentMessageListenerContainer<String, String> eventsContainer(Environment environment,
				ProcessedRecords processed,
				org.springframework.beans.factory.ObjectProvider<LifecycleManager> manager) {
			Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
					environment.getRequiredProperty("kafka.bootstrap-servers"), ConsumerConfig.GROUP_ID_CONFIG, GROUP,
					ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
					false, ConsumerConfig.INTERCEPTOR_CLASSES_CONFIG, CommitRecorder.class.getName());
			DefaultKafkaConsumerFactory<String, String> consumers = new DefaultKafkaConsumerFactory<>(config,
					new StringDeserializer(), new StringDeserializer());
			ContainerProperties properties = new ContainerProperties(TOPIC);
			properties.setAckMode(ContainerProperties.AckMode.RECORD);
			properties.setPollTimeout(200);
			properties.setMessageListener((MessageListener<String, String>) (record) -> processed.list()
				.add(new Processed(record.value(), record.offset(), manager.getObject().isShutdownInitiated())));
			return new ConcurrentMessageListenerContainer<>(consumers, properties);
		}

	}

	/** Records every committed position of the test topic, as the broker accepted it. */
	public static class CommitRecorder implements ConsumerInterceptor<String, String> {

		static final List<Long> COMMITS = new CopyOnWriteArrayList<>();

		@Override
		public ConsumerRecords<String, String> onConsume(ConsumerRecords<String, String> records) {
			return records;
		}

		@Override
		public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
			List<Long> positions = new ArrayList<>();
			offsets.forEach((partition, offset) -> {
				if (partition.topic().equals(TOPIC)) {
					positions.add(offset.offset());
				}
			});
			COMMITS.addAll(positions);
		}

		@Override
		public void close() {
		}

		@Override
		public void configure(Map<String, ?> configs) {
		}

	}

}
