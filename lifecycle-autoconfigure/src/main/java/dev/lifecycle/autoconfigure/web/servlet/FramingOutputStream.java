package dev.lifecycle.autoconfigure.web.servlet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;

import dev.lifecycle.autoconfigure.web.StreamTypes;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import org.jspecify.annotations.Nullable;

/**
 * The servlet output stream of a {@link ClosingResponse}: tells it of every write before
 * the write reaches the server's stream, so that the header and the framing are settled
 * before the server commits the response. On a server-sent event stream, every write and
 * flush holds a lock and the stream notes whether its last bytes ended an event, so that
 * the drain's reconnection advice can go between two events, never inside one.
 */
final class FramingOutputStream extends ServletOutputStream {

	private final ServletOutputStream delegate;

	private final ClosingResponse response;

	/**
	 * Held by every write and flush of an event stream; made for event streams only, see
	 * {@link #events()}.
	 */
	private volatile @Nullable ReentrantLock events;

	/** Whether the response is an event stream, decided at the first write. */
	private @Nullable Boolean eventStream;

	/** The last two bytes written to an event stream, the last in the low byte. */
	private int lastTwo = '\n' << 8 | '\n';

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
		if (!isEventStream()) {
			this.response.beforeBytes(1);
			this.delegate.write(b);
			return;
		}
		ReentrantLock events = events();
		events.lock();
		try {
			this.response.beforeBytes(1);
			this.delegate.write(b);
			this.lastTwo = (this.lastTwo << 8 | (b & 0xff)) & 0xffff;
		}
		finally {
			events.unlock();
		}
	}

	@Override
	public void write(byte[] b, int off, int len) throws IOException {
		if (!isEventStream()) {
			this.response.beforeBytes(len);
			this.delegate.write(b, off, len);
			return;
		}
		ReentrantLock events = events();
		events.lock();
		try {
			this.response.beforeBytes(len);
			this.delegate.write(b, off, len);
			for (int i = Math.max(off, off + len - 2); i < off + len; i++) {
				this.lastTwo = (this.lastTwo << 8 | (b[i] & 0xff)) & 0xffff;
			}
		}
		finally {
			events.unlock();
		}
	}

	@Override
	public void write(ByteBuffer buffer) throws IOException {
		if (!isEventStream()) {
			this.response.beforeBytes(buffer.remaining());
			this.delegate.write(buffer);
			return;
		}
		byte[] bytes = new byte[buffer.remaining()];
		buffer.get(bytes);
		write(bytes, 0, bytes.length);
	}

	/**
	 * Writes and flushes {@code event} if no write is under way and the last bytes
	 * written ended an event; never waits for the application's writes.
	 * @return whether it was written
	 */
	boolean writeBetweenEvents(byte[] event) {
		if (!isEventStream()) {
			return false;
		}
		ReentrantLock events = events();
		if (!events.tryLock()) {
			return false;
		}
		try {
			if (this.lastTwo != ('\n' << 8 | '\n')) {
				return false;
			}
			write(event, 0, event.length);
			flush();
			return true;
		}
		catch (IOException | RuntimeException ex) {
			// The connection is gone or the server refuses the write: the stream ends
			// without the advice.
			return false;
		}
		finally {
			events.unlock();
		}
	}

	/**
	 * Runs a flush of the response's buffer, on an event stream under the same lock as
	 * the writes: the server's own flush, which {@code flushBuffer()} reaches without
	 * this stream, must not meet the advice's write.
	 */
	void flushing(Print flush) throws IOException {
		if (!isEventStream()) {
			flush.run();
			return;
		}
		ReentrantLock events = events();
		events.lock();
		try {
			flush.run();
		}
		finally {
			events.unlock();
		}
	}

	/**
	 * The lock of an event stream's writes, made when first needed: most responses are
	 * not event streams. Every thread that asks gets the same lock.
	 */
	private ReentrantLock events() {
		ReentrantLock lock = this.events;
		if (lock == null) {
			synchronized (this) {
				lock = this.events;
				if (lock == null) {
					lock = new ReentrantLock();
					this.events = lock;
				}
			}
		}
		return lock;
	}

	private boolean isEventStream() {
		Boolean known = this.eventStream;
		if (known == null) {
			known = StreamTypes.isEventStream(this.response.getContentType());
			this.eventStream = known;
		}
		return known;
	}

	// Printed text is the server's to encode (Jetty uses the response's encoding); every
	// other print and println of the servlet API comes here as text. On an event stream
	// its bytes are not followed, so no advice goes after it.

	@Override
	public void print(@Nullable String s) throws IOException {
		printed(() -> {
			this.response.beforePrint(String.valueOf(s));
			this.delegate.print(s);
		});
	}

	@Override
	public void println(@Nullable String s) throws IOException {
		printed(() -> {
			this.response.beforePrint(s + "\r\n");
			this.delegate.println(s);
		});
	}

	@Override
	public void println() throws IOException {
		printed(() -> {
			this.response.beforeBytes(2);
			this.delegate.println();
		});
	}

	private void printed(Print print) throws IOException {
		if (!isEventStream()) {
			print.run();
			return;
		}
		ReentrantLock events = events();
		events.lock();
		try {
			print.run();
			this.lastTwo = 0;
		}
		finally {
			events.unlock();
		}
	}

	@FunctionalInterface
	interface Print {

		void run() throws IOException;

	}

	@Override
	public void flush() throws IOException {
		if (!isEventStream()) {
			this.response.frame();
			this.delegate.flush();
			return;
		}
		ReentrantLock events = events();
		events.lock();
		try {
			this.response.frame();
			this.delegate.flush();
		}
		finally {
			events.unlock();
		}
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
