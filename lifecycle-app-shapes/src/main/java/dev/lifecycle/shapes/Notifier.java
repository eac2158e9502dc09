package dev.lifecycle.shapes;

import java.util.concurrent.CompletableFuture;

import org.springframework.scheduling.annotation.Async;

/** An asynchronous service declared by interface. */
public interface Notifier {

	@Async
	CompletableFuture<String> notify(String text);

}
