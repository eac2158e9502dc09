package dev.lifecycle.shapes;

import org.springframework.integration.annotation.MessagingGateway;

/** A Spring Integration gateway: a FactoryBean whose product is a JDK proxy. */
@MessagingGateway(defaultRequestChannel = "upper.input")
public interface Echo {

	String echo(String text);

}
