package dev.lifecycle.sample.ingest;

import org.apache.coyote.http11.AbstractHttp11Protocol;

import org.springframework.boot.tomcat.TomcatProtocolHandlerCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Tomcat answers {@code Expect: 100-continue} only when the application starts reading
 * the body (Tomcat's default is at once). {@code POST /events} refuses a declared
 * oversized body without reading it, so a client that asked first (curl does for large
 * bodies) gets the 413 without ever sending the 10 MB.
 */
@Configuration(proxyBeanMethods = false)
public class TomcatContinueConfiguration {

	@Bean
	TomcatProtocolHandlerCustomizer<AbstractHttp11Protocol<?>> continueOnRead() {
		return (protocol) -> protocol.setContinueResponseTiming("onRead");
	}

}
