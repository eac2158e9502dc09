package dev.lifecycle.autoconfigure.web.servlet;

import java.io.PrintWriter;
import java.nio.CharBuffer;

/**
 * The writer of a {@link ClosingResponse}: tells it of every character before it reaches
 * the server's writer. Its errors stay the server writer's own.
 */
final class FramingWriter extends PrintWriter {

	private static final String LINE_SEPARATOR = System.lineSeparator();

	private final PrintWriter delegate;

	private final ClosingResponse response;

	FramingWriter(PrintWriter delegate, ClosingResponse response) {
		super(delegate);
		this.delegate = delegate;
		this.response = response;
	}

	/** Whether this writer writes to that server writer. */
	boolean writesTo(PrintWriter writer) {
		return this.delegate == writer;
	}

	@Override
	public void write(int c) {
		if (!this.response.countedBeforeTheShutdown(1)) {
			this.response.beforeText(String.valueOf((char) c), 0, 1);
		}
		super.write(c);
	}

	@Override
	public void write(char[] buf, int off, int len) {
		if (!this.response.countedBeforeTheShutdown(len)) {
			this.response.beforeText(CharBuffer.wrap(buf), off, len);
		}
		super.write(buf, off, len);
	}

	@Override
	public void write(String s, int off, int len) {
		this.response.beforeText(s, off, len);
		super.write(s, off, len);
	}

	@Override
	public void println() {
		// PrintWriter writes the line separator to the server's writer directly, past
		// write().
		this.response.beforeText(LINE_SEPARATOR, 0, LINE_SEPARATOR.length());
		super.println();
	}

	@Override
	public void flush() {
		this.response.frame();
		super.flush();
	}

	@Override
	public void close() {
		this.response.closeIfShuttingDown();
		super.close();
	}

}
