package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

/**
 * A response that carries {@code Connection: close} once the shutdown has begun: set at
 * the start if it began before, else just before the response is committed, when its
 * framing is decided too. With no shutdown under way every call reaches the server's
 * response unchanged, and each write costs one read of the shutdown flag and a sum of its
 * length.
 */
final class ClosingResponse extends HttpServletResponseWrapper {

	private final HttpServletRequest request;

	private final BooleanSupplier shuttingDown;

	private final PipelinedServletRequests pipelines;

	/** See {@link ServerBuffering#largestBufferedWrite}; looked up when first needed. */
	private @Nullable IntUnaryOperator largestBufferedWrite;

	/** Whether the header is set. */
	private boolean closing;

	private boolean framed;

	/** Bytes since the last reset, counted exactly once the header is set. */
	private long bufferedBytes;

	/**
	 * Characters written through the writer before the header was set, their bytes not
	 * counted.
	 */
	private long bufferedChars;

	private @Nullable String writerEncoding;

	private @Nullable TextBytes text;

	private @Nullable FramingOutputStream stream;

	private @Nullable FramingWriter writer;

	ClosingResponse(HttpServletResponse response, HttpServletRequest request, BooleanSupplier shuttingDown,
			PipelinedServletRequests pipelines) {
		super(response);
		this.request = request;
		this.shuttingDown = shuttingDown;
		this.pipelines = pipelines;
		closeIfShuttingDown();
	}

	// The server's own stream and writer are asked for every time: it enforces which of
	// the two a response uses and, after a reset, gives a writer of the new encoding.

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		ServletOutputStream delegate = super.getOutputStream();
		FramingOutputStream stream = this.stream;
		if (stream == null || !stream.writesTo(delegate)) {
			stream = new FramingOutputStream(delegate, this);
			this.stream = stream;
		}
		return stream;
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		PrintWriter delegate = super.getWriter();
		this.writerEncoding = getCharacterEncoding();
		FramingWriter writer = this.writer;
		if (writer == null || !writer.writesTo(delegate)) {
			writer = new FramingWriter(delegate, this);
			this.writer = writer;
		}
		return writer;
	}

	@Override
	public void flushBuffer() throws IOException {
		FramingOutputStream current = this.stream;
		if (current == null) {
			frame();
			super.flushBuffer();
			return;
		}
		current.flushing(() -> {
			frame();
			super.flushBuffer();
		});
	}

	@Override
	public void resetBuffer() {
		super.resetBuffer();
		this.bufferedBytes = 0;
		this.bufferedChars = 0;
	}

	@Override
	public void reset() {
		// Headers go too: they are set again when the response is committed.
		super.reset();
		this.bufferedBytes = 0;
		this.bufferedChars = 0;
		this.framed = false;
		this.closing = false;
	}

	@Override
	public void sendError(int sc, String msg) throws IOException {
		closeIfShuttingDown();
		super.sendError(sc, msg);
	}

	@Override
	public void sendError(int sc) throws IOException {
		closeIfShuttingDown();
		super.sendError(sc);
	}

	@Override
	public void sendRedirect(String location) throws IOException {
		closeIfShuttingDown();
		super.sendRedirect(location);
	}

	@Override
	public void sendRedirect(String location, boolean clearBuffer) throws IOException {
		closeIfShuttingDown();
		super.sendRedirect(location, clearBuffer);
	}

	@Override
	public void sendRedirect(String location, int sc) throws IOException {
		closeIfShuttingDown();
		super.sendRedirect(location, sc);
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
		closeIfShuttingDown();
		super.sendRedirect(location, sc, clearBuffer);
	}

	/**
	 * Writes a server-sent event between two of the application's events, if it writes
	 * through the output stream and is not writing now.
	 * @return whether it was written
	 */
	boolean writeBetweenEvents(byte[] event) {
		FramingOutputStream current = this.stream;
		return current != null && current.writeBetweenEvents(event);
	}

	/** Sets the header on a response not yet committed, if the shutdown has begun. */
	void closeIfShuttingDown() {
		// The flag first: while serving, it is all this costs. The last request of a
		// pipeline says close; those before it are served on the connection.
		if (!this.closing && this.shuttingDown.getAsBoolean() && !isCommitted()
				&& !this.pipelines.follow(this.request)) {
			this.closing = true;
			setHeader("Connection", "close");
		}
	}

	/** Called before {@code count} more bytes go to the server's buffer. */
	void beforeBytes(long count) {
		this.bufferedBytes += count;
		// A write that completes the length the response announced commits it at once.
		closeIfShuttingDown();
		if (this.closing) {
			frameIfSent(count);
		}
	}

	/**
	 * Counts {@code len} characters about to go to the server's buffer while no shutdown
	 * has begun, their encoding looked up only if one comes while this response is
	 * written.
	 * @return {@code false} once the header is set: then {@link #beforeText} counts them
	 */
	boolean countedBeforeTheShutdown(int len) {
		closeIfShuttingDown();
		if (this.closing) {
			return false;
		}
		this.bufferedChars += len;
		return true;
	}

	/**
	 * Called before {@code len} characters of {@code text} from {@code off} go through
	 * the writer to the server's buffer.
	 */
	void beforeText(CharSequence text, int off, int len) {
		if (countedBeforeTheShutdown(len)) {
			return;
		}
		long bytes = text(this.writerEncoding).of(text, off, len);
		this.bufferedBytes += bytes;
		frameIfSent(bytes);
	}

	/**
	 * Called before {@code text} is printed on the stream, in the response's encoding.
	 */
	void beforePrint(String text) {
		closeIfShuttingDown();
		beforeBytes(this.closing ? text(getCharacterEncoding()).of(text, 0, text.length())
				: TextBytes.atMostInAnyCharset(text.length()));
	}

	private TextBytes text(@Nullable String encoding) {
		TextBytes text = this.text;
		if (text == null || !text.counts(encoding)) {
			text = TextBytes.of(encoding);
			this.text = text;
		}
		return text;
	}

	/**
	 * Frames the response if the write of {@code bytes} now coming may make the server
	 * send it.
	 */
	private void frameIfSent(long bytes) {
		if (this.framed) {
			return;
		}
		long buffered = this.bufferedBytes
				+ ((this.bufferedChars > 0) ? text(this.writerEncoding).atMost(this.bufferedChars) : 0);
		int bufferSize = getBufferSize();
		if (buffered >= bufferSize || bytes > largestBufferedWrite().applyAsInt(bufferSize)) {
			frame();
		}
	}

	private IntUnaryOperator largestBufferedWrite() {
		IntUnaryOperator largest = this.largestBufferedWrite;
		if (largest == null) {
			largest = ServerBuffering.largestBufferedWrite(this.request);
			this.largestBufferedWrite = largest;
		}
		return largest;
	}

	/** Just before the response is committed with a body still to come. */
	void frame() {
		closeIfShuttingDown();
		if (!this.framed && this.closing && !isCommitted()) {
			this.framed = true;
			ChunkedFraming.keep(getResponse(), "HEAD".equals(this.request.getMethod()), getStatus(),
					containsHeader("Content-Length"));
		}
	}

}
