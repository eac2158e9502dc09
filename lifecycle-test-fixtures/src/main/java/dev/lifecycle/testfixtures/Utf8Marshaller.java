package dev.lifecycle.testfixtures;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import io.grpc.MethodDescriptor;

/**
 * Strings as UTF-8 bytes: enough for a test's gRPC service without generated code. Needs
 * grpc-api on the class path.
 */
public enum Utf8Marshaller implements MethodDescriptor.Marshaller<String> {

	/** The one marshaller. */
	INSTANCE;

	@Override
	public InputStream stream(String value) {
		return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
	}

	@Override
	public String parse(InputStream stream) {
		try {
			return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
