package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntUnaryOperator;

import dev.lifecycle.autoconfigure.web.Http2Drain;
import dev.lifecycle.autoconfigure.web.StreamDrain;
import dev.lifecycle.core.LifecycleHost;
import dev.lifecycle.core.LifecycleManager;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Drains connections, not only routing, on the servlet stacks (Tomcat, Jetty): from the first
 * instant of a shutdown every HTTP/1.x response carries {@code Connection: close}, whenever its
 * request arrived, so a keep-alive client reconnects through the load balancer to a ready pod
 * instead of meeting the stopping server at the drain's end; HTTP/2 gets a GOAWAY instead
 * ({@link Http2Drain}). It also counts requests for the adaptive drain and server errors after the
 * trigger for the report, and ends streaming responses when the {@link StreamDrain} says so, so none
 * holds the graceful shutdown. Details: {@code docs/connection-drain.md}.
 */
final class ConnectionDrainFilter extends OncePerRequestFilter {

	private static final boolean JETTY = ClassUtils.isPresent("org.eclipse.jetty.ee11.servlet.ServletContextRequest",
			ConnectionDrainFilter.class.getClassLoader());

	private final LifecycleManager manager;

	private final boolean connectionClose;

	private final StreamDrain streams;

	private final Http2Drain http2;

	/** Asynchronous responses still open, each with the response this filter served it. */
	private final Map<AsyncContext, HttpServletResponse> open = new ConcurrentHashMap<>();

	ConnectionDrainFilter(LifecycleManager manager, boolean connectionClose, StreamDrain streams, Http2Drain http2) {
		this.manager = manager;
		this.connectionClose = connectionClose;
		this.streams = streams;
		this.http2 = http2;
		streams.register(this::endStreams);
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// The error page of a request already counted is not traffic of its own; its body is
		// framed like any other.
		boolean counted = request.getDispatcherType() != DispatcherType.ERROR;
		if (counted) {
			LifecycleHost.of(this.manager).recordActivity();
			// HTTP/2 has no Connection header: its connection gets a GOAWAY instead, before the
			// response and again after it, in case the server could not reach the connection then.
			this.http2.onRequest(request);
		}
		HttpServletResponse served = drainsConnection(request)
				? new ClosingResponse(response, request, this.manager::isShutdownInitiated) : response;
		try {
			chain.doFilter(request, served);
		}
		catch (IOException | ServletException | RuntimeException | Error ex) {
			// The container answers it with a server error.
			if (counted) {
				LifecycleHost.of(this.manager).recordFailedRequest();
			}
			throw ex;
		}
		if (counted && !request.isAsyncStarted() && response.getStatus() >= 500) {
			LifecycleHost.of(this.manager).recordFailedRequest();
		}
		if (request.isAsyncStarted()) {
			track(request.getAsyncContext(), served);
		}
		else if (served instanceof ClosingResponse closing) {
			closing.closeIfShuttingDown();
		}
		if (counted && this.manager.isShutdownInitiated()) {
			this.http2.onRequest(request);
		}
	}

	/**
	 * Whether this request's connection is drained with {@code Connection: close}: an HTTP/1.x one
	 * that is not a WebSocket upgrade, whose socket ends with the streams instead. An offer of h2c
	 * the server does not take is answered in HTTP/1.1 like any request.
	 */
	private boolean drainsConnection(HttpServletRequest request) {
		return this.connectionClose && request.getProtocol().startsWith("HTTP/1")
				&& !"websocket".equalsIgnoreCase(request.getHeader("Upgrade"));
	}

	private void track(AsyncContext context, HttpServletResponse served) {
		if (this.open.putIfAbsent(context, served) != null) {
			return;
		}
		context.addListener(new Forgetting(context, served));
		if (this.streams.isEnded()) {
			endIfStreaming(context);
		}
	}

	/** How many asynchronous responses are tracked: those still open. */
	int tracked() {
		return this.open.size();
	}

	private void endStreams() {
		this.open.keySet().forEach(this::endIfStreaming);
	}

	/**
	 * Ends a response that streams: one whose body has begun, or that announced a stream (server-sent
	 * events, NDJSON) and has sent nothing yet. A response still waiting for its single result (a
	 * {@code Callable}, {@code DeferredResult} or {@code CompletableFuture} of a controller) is a
	 * request in flight like any other: cutting it short would answer an empty body for work that
	 * was done. It keeps its place here and ends at a later sweep if it starts streaming.
	 */
	private void endIfStreaming(AsyncContext context) {
		try {
			if (!isStreaming(context.getResponse())) {
				return;
			}
		}
		catch (IllegalStateException ex) {
			// Completed meanwhile: nothing to end.
			this.open.remove(context);
			return;
		}
		complete(context);
	}

	private static boolean isStreaming(ServletResponse response) {
		if (response.isCommitted()) {
			return true;
		}
		String type = response.getContentType();
		if (type == null) {
			return false;
		}
		String lower = type.toLowerCase(Locale.ROOT);
		return lower.startsWith("text/event-stream") || lower.startsWith("application/x-ndjson");
	}

	private void complete(AsyncContext context) {
		HttpServletResponse served = this.open.remove(context);
		try {
			// A stream that has sent nothing yet is committed by its completion: it says close too.
			if (served instanceof ClosingResponse closing) {
				closing.closeIfShuttingDown();
			}
			context.complete();
		}
		catch (IllegalStateException ex) {
			// Already completed by the application: nothing to end.
		}
	}

	/** Forgets a response when it ends, following it into each new asynchronous cycle. */
	private final class Forgetting implements AsyncListener {

		private final AsyncContext context;

		private final HttpServletResponse served;

		Forgetting(AsyncContext context, HttpServletResponse served) {
			this.context = context;
			this.served = served;
		}

		@Override
		public void onComplete(AsyncEvent event) {
			forget();
		}

		@Override
		public void onTimeout(AsyncEvent event) {
			forget();
		}

		@Override
		public void onError(AsyncEvent event) {
			forget();
		}

		private void forget() {
			ConnectionDrainFilter.this.open.remove(this.context);
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			// A result that is itself asynchronous (a DeferredResult of a StreamingResponseBody)
			// starts a new cycle, whose events reach only the listeners registered for it.
			forget();
			AsyncContext next = event.getAsyncContext();
			if (next != null) {
				track(next, this.served);
			}
		}

	}

	/**
	 * The largest single write the server buffers rather than sends at once, given its buffer's
	 * size: Jetty writes one larger than its aggregation size straight through, committing the
	 * response; Tomcat buffers every write up to its buffer's size.
	 */
	private static IntUnaryOperator largestBufferedWrite(HttpServletRequest request) {
		if (JETTY && servedByJetty(request)) {
			try {
				Integer size = JettyRequests.aggregationSize(request);
				if (size != null) {
					return (buffer) -> Math.min(size, buffer);
				}
			}
			catch (RuntimeException | LinkageError ex) {
				// Another Jetty than the one compiled against: a quarter of the buffer, its default.
				return (buffer) -> buffer / 4;
			}
		}
		return IntUnaryOperator.identity();
	}

	/** Whether Jetty serves the request: both servers' classes may be present. */
	private static boolean servedByJetty(ServletRequest request) {
		ServletRequest current = request;
		while (current instanceof ServletRequestWrapper wrapper) {
			current = wrapper.getRequest();
		}
		return current.getClass().getName().startsWith("org.eclipse.jetty.");
	}

	/**
	 * A response that carries {@code Connection: close} once the shutdown has begun: set at the
	 * start if it began before, else just before the response is committed, when its framing is
	 * decided too. With no shutdown under way every call reaches the server's response unchanged.
	 */
	private static final class ClosingResponse extends HttpServletResponseWrapper {

		private final HttpServletRequest request;

		private final BooleanSupplier shuttingDown;

		/** See {@link ConnectionDrainFilter#largestBufferedWrite}; looked up when first needed. */
		private @Nullable IntUnaryOperator largestBufferedWrite;

		/** Whether the header is set. */
		private boolean closing;

		private boolean framed;

		/** Bytes since the last reset, counted exactly once the header is set. */
		private long bufferedBytes;

		/** Characters written through the writer before the header was set, their bytes not counted. */
		private long bufferedChars;

		private @Nullable String writerEncoding;

		private @Nullable TextBytes text;

		private @Nullable FramingOutputStream stream;

		private @Nullable FramingWriter writer;

		ClosingResponse(HttpServletResponse response, HttpServletRequest request, BooleanSupplier shuttingDown) {
			super(response);
			this.request = request;
			this.shuttingDown = shuttingDown;
			closeIfShuttingDown();
		}

		// The server's own stream and writer are asked for every time: it enforces which of the two a
		// response uses and, after a reset, gives a writer of the new encoding.

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			ServletOutputStream delegate = super.getOutputStream();
			FramingOutputStream stream = this.stream;
			if (stream == null || stream.delegate != delegate) {
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
			if (writer == null || writer.delegate != delegate) {
				writer = new FramingWriter(delegate, this);
				this.writer = writer;
			}
			return writer;
		}

		@Override
		public void flushBuffer() throws IOException {
			frame();
			super.flushBuffer();
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

		/** Sets the header on a response not yet committed, if the shutdown has begun. */
		void closeIfShuttingDown() {
			// The last request of a pipeline says close; those before it are served on the connection.
			if (!this.closing && !isCommitted() && this.shuttingDown.getAsBoolean()
					&& !PipelinedServletRequests.follow(this.request)) {
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
		 * Counts {@code len} characters about to go to the server's buffer while no shutdown has
		 * begun, their encoding looked up only if one comes while this response is written.
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
		 * Called before {@code len} characters of {@code text} from {@code off} go through the
		 * writer to the server's buffer.
		 */
		void beforeText(CharSequence text, int off, int len) {
			if (countedBeforeTheShutdown(len)) {
				return;
			}
			long bytes = text(this.writerEncoding).of(text, off, len);
			this.bufferedBytes += bytes;
			frameIfSent(bytes);
		}

		/** Called before {@code text} is printed on the stream, in the response's encoding. */
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

		/** Frames the response if the write of {@code bytes} now coming may make the server send it. */
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
				largest = ConnectionDrainFilter.largestBufferedWrite(this.request);
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

	/** The servlet output stream of a {@link ClosingResponse}. */
	private static final class FramingOutputStream extends ServletOutputStream {

		private final ServletOutputStream delegate;

		private final ClosingResponse response;

		FramingOutputStream(ServletOutputStream delegate, ClosingResponse response) {
			this.delegate = delegate;
			this.response = response;
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

		// Printed text is the server's to encode (Jetty uses the response's encoding); every other
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

	/** The writer of a {@link ClosingResponse}; its errors stay the server writer's own. */
	private static final class FramingWriter extends PrintWriter {

		private static final String LINE_SEPARATOR = System.lineSeparator();

		private final PrintWriter delegate;

		private final ClosingResponse response;

		FramingWriter(PrintWriter delegate, ClosingResponse response) {
			super(delegate);
			this.delegate = delegate;
			this.response = response;
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
			// PrintWriter writes the line separator to the server's writer directly, past write().
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

	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
	}

	@Override
	protected boolean shouldNotFilterErrorDispatch() {
		return false;
	}

}
