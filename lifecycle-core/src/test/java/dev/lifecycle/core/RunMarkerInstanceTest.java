package dev.lifecycle.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each process has an identity of its own, written into its run marker and known to the
 * next process of the same marker: whether that process ended without a shutdown or after
 * one.
 */
class RunMarkerInstanceTest {

	@TempDir
	Path directory;

	private Path marker() {
		return this.directory.resolve("lifecycle-orders.running");
	}

	@Test
	void theMarkerNamesThisProcessesIdentityAndTheNextProcessKnowsItAfterAnUncleanEnd() throws Exception {
		LifecycleManager first = LifecycleManager.builder("orders").runMarker(marker()).build();
		String identity = first.instance().orElseThrow();
		assertThat(identity).matches("[a-z0-9._-]{1,63}/[0-9a-f]{16}");
		assertThat(Files.readString(marker())).contains(" instance=" + identity);

		// The first never shuts down: its marker stays, as after a SIGKILL.
		LifecycleManager next = LifecycleManager.builder("orders").runMarker(marker()).build();
		assertThat(next.previousRun()).hasValueSatisfying((previous) -> {
			assertThat(previous.unclean()).isTrue();
			assertThat(previous.instance()).isEqualTo(identity);
		});
		assertThat(next.instance()).isPresent().isNotEqualTo(first.instance());
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();

		LifecycleManager third = LifecycleManager.builder("orders").runMarker(marker()).build();
		assertThat(third.previousRun()).hasValueSatisfying((previous) -> {
			assertThat(previous.unclean()).isFalse();
			assertThat(previous.instance()).isEqualTo(next.instance().orElseThrow());
		});
		third.triggerShutdown(ShutdownReason.SIGNAL, "test");
		third.awaitTermination();
	}

	@Test
	void aMarkerWrittenBeforeInstancesWereNamedIsStillReadAndNamesNone() throws Exception {
		Files.writeString(marker(), "pid=4242 started=2026-11-23T10:00:00Z\n");

		LifecycleManager next = LifecycleManager.builder("orders").runMarker(marker()).build();

		assertThat(next.previousRun()).hasValueSatisfying((previous) -> {
			assertThat(previous.unclean()).isTrue();
			assertThat(previous.instance()).isNull();
		});
		next.triggerShutdown(ShutdownReason.SIGNAL, "test");
		next.awaitTermination();
	}

	@Test
	void withoutARunMarkerAProcessHasNoIdentityToStamp() {
		assertThat(LifecycleManager.builder("orders").build().instance()).isEmpty();
	}

}
