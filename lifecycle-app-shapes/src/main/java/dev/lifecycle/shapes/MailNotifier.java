package dev.lifecycle.shapes;

import java.util.concurrent.CompletableFuture;

import org.springframework.stereotype.Service;

/** Runs on the primary executor through an {@code @Async} proxy. */
@Service
class MailNotifier implements Notifier {

	@Override
	public CompletableFuture<String> notify(String text) {
		return CompletableFuture.completedFuture(text + " on " + Thread.currentThread().getName());
	}

}
