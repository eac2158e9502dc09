package dev.lifecycle.docs;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import dev.lifecycle.core.LifecycleManager;
import dev.lifecycle.core.Outcome;
import dev.lifecycle.core.ShutdownReason;
import dev.lifecycle.core.ShutdownReport;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.kafka.annotation.EnableKafka;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka recipes: a {@code @KafkaListener} as a plain component against a real broker
 * in this JVM. The listener container (Spring Kafka's endpoint registry, whose bean name
 * has dots) is adopted at its own Spring phase, keeps consuming through the drain delay,
 * and the store the listener writes to is stopped only after the listener and the
 * container have stopped.
 */
class KafkaListenerDocsTests {

	// tag::kafka-test[]
	private static EmbeddedKafkaKraftBroker broker;

	private static KafkaProducer<String, String> producer;

	@BeforeAll
	static void startBroker() {
		// a KRaft broker in the test's JVM
		broker = new EmbeddedKafkaKraftBroker(1, 1, "orders");
		broker.afterPropertiesSet();
		Properties properties = new Properties();
		properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString());
		producer = new KafkaProducer<>(properties, new StringSerializer(), new StringSerializer());
	}

	@AfterAll
	static void stopBroker() {
		producer.close();
		broker.destroy();
	}

	@Test
	void ordersSentBeforeAndDuringTheDrainAreAllStoredBeforeTheStoreStops() throws Exception {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE,
				java.util.List.of("lifecycle.drain-delay=1s",
						"orders.kafka.bootstrap-servers=" + broker.getBrokersAsString()),
				KafkaConfiguration.class, OrdersListener.class, OrderStore.class)) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			OrderStore store = context.getBean(OrderStore.class);
			producer.send(new ProducerRecord<>("orders", "o-1")).get();
			await().atMost(Duration.ofSeconds(60)).until(() -> store.stored().contains("o-1"));

			// as a first SIGTERM would
			manager.triggerShutdown(ShutdownReason.SIGNAL, "test");
			// during the drain delay
			producer.send(new ProducerRecord<>("orders", "o-2")).get();

			ShutdownReport report = manager.awaitTermination(Duration.ofSeconds(60)).orElseThrow();
			assertThat(report.exitCode()).isZero();
			assertThat(store.stored()).containsExactly("o-1", "o-2");
			assertThat(report.component("orders-listener").orElseThrow().outcome()).isEqualTo(Outcome.COMPLETED);
			assertThat(report.component("org.springframework.kafka.config.internalKafkaListenerEndpointRegistry")
				.orElseThrow()
				.phase()).isEqualTo(AbstractMessageListenerContainer.DEFAULT_PHASE);
		}
	}
	// end::kafka-test[]

	@Test
	void aBeanNameWithDotsIsConfiguredWithBrackets() {
		try (ConfigurableApplicationContext context = DocsApplications.run(WebApplicationType.NONE, java.util.List.of(
				"orders.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
				"lifecycle.components[org.springframework.kafka.config.internalKafkaListenerEndpointRegistry].phase=25"),
				KafkaConfiguration.class, OrdersListener.class, OrderStore.class)) {
			LifecycleManager manager = context.getBean(LifecycleManager.class);
			assertThat(manager.components())
				.filteredOn((component) -> component.name()
					.equals("org.springframework.kafka.config.internalKafkaListenerEndpointRegistry"))
				.singleElement()
				.satisfies((component) -> assertThat(component.phase()).isEqualTo(25));
		}
	}

	@Configuration(proxyBeanMethods = false)
	@EnableKafka
	static class KafkaConfiguration {

		@Bean
		ConcurrentKafkaListenerContainerFactory<String, String> kafkaListenerContainerFactory(Environment environment) {
			ConcurrentKafkaListenerContainerFactory<String, String> factory = new ConcurrentKafkaListenerContainerFactory<>();
			factory.setConsumerFactory(new DefaultKafkaConsumerFactory<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
					environment.getRequiredProperty("orders.kafka.bootstrap-servers"), ConsumerConfig.GROUP_ID_CONFIG,
					"orders", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
					new StringDeserializer()));
			factory.getContainerProperties().setPollTimeout(200);
			return factory;
		}

	}

}
