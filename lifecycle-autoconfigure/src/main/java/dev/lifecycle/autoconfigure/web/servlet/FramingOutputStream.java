package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.nio.ByteBuffer;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import org.jspecify.annotations.Nullable;

/**
 * The servlet output stream of a {@link ClosingResponse}: tells it of every write before
 * the write reaches the server's stream, so that the header and the framing are settled
 * before the server commits the response.
 */
final class FramingOutputStream extends ServletOutputStream {

	private final ServletOutputStream delegate;

	private final ClosingResponse response;

	FramingOutputStream(ServletOutputStream delegate, ClosingResponse response) {
		this.delegate = delegate;
		this.response = response;
	}

	/** Whether this stream writes to that server stream. */
	boolean writesTo(ServletOutputStream stream) {
		return this.delegate == stream;
	}

	@Override
	public void write(int b) throws IOException {
		this.response.beforeBytes(1);
		this.delegate.write(b);
	}

	@Override
	public void write(byte[] b, int off, int len) throws IOException {
		this.response.beforeBytes(len);
		this.delegate.write(b, off, len);
	}

	@Override
	public void write(ByteBuffer buffer) throws IOException {
		this.response.beforeBytes(buffer.remaining());
		this.delegate.write(buffer);
	}

	// Printed text is the server's to encode (Jetty uses the response's encoding); every
	// other
	// print and println of the servlet API comes here as text.

	@Override
	public void print(@Nullable String s) throws IOException {
		this.response.beforePrint(String.valueOf(s));
		this.delegate.print(s);
	}

	@Override
	public void println(@Nullable String s) throws IOException {
		this.response.beforePrint(s + "\r\n");
		this.delegate.println(s);
	}

	@Override
	public void println() throws IOException {
		this.response.beforeBytes(2);
		this.delegate.println();
	}

	@Override
	public void flush() throws IOException {
		this.response.frame();
		this.delegate.flush();
	}

	@Override
	public void close() throws IOException {
		this.response.closeIfShuttingDown();
		this.delegate.close();
	}

	@Override
	public boolean isReady() {
		return this.delegate.isReady();
	}

	@Override
	public void setWriteListener(WriteListener listener) {
		this.delegate.setWriteListener(listener);
	}

}
