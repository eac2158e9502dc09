package dev.lifecycle.core;

import java.util.List;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.slf4j.LoggerFactory;

/** Captures the engine's log lines (formatted messages) for assertions. */
final class LogCapture {

	private final Logger logger = (Logger) LoggerFactory.getLogger("dev.lifecycle.core");

	private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

	private LogCapture() {
	}

	static LogCapture start() {
		LogCapture capture = new LogCapture();
		capture.appender.start();
		capture.logger.addAppender(capture.appender);
		return capture;
	}

	List<String> messages() {
		synchronized (this.appender.list) {
			return this.appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
		}
	}

	void stop() {
		this.logger.detachAppender(this.appender);
		this.appender.stop();
	}

}
