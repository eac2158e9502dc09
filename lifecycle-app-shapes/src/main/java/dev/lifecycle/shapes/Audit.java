package dev.lifecycle.shapes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import dev.lifecycle.spring.ManagedComponent;
import dev.lifecycle.spring.ShutdownHandler;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Lazy;

/**
 * A lazy component that nothing injects, with a shutdown handler: Lifecycle must see it
 * whatever the lazy setting. Its handler appends a line to {@code shapes.audit-file}.
 */
@ManagedComponent("audit")
@Lazy
class Audit {

	private final Path file;

	Audit(@Value("${shapes.audit-file:}") String file) {
		this.file = file.isEmpty() ? null : Path.of(file);
	}

	@ShutdownHandler(name = "audit-checkpoint")
	void checkpoint() {
		if (this.file != null) {
			try {
				Files.writeString(this.file, "audit checkpoint\n", StandardOpenOption.CREATE,
						StandardOpenOption.APPEND);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
	}

}
