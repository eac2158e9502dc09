/**
 * The client of {@code stream-scale.sh}: many long-lived streams (server-sent events and
 * WebSockets) and an open-loop prober of ordinary requests, all through one address (a
 * proxy in front of several instances of the stream app), from one JVM that costs little
 * CPU: the JDK {@link java.net.http.HttpClient} and {@link java.net.http.WebSocket},
 * non-blocking (one selector thread for the streams with a pool of two threads for their
 * callbacks, and one client with a selector, a timer and a callback thread of its own for
 * the prober), no thread per stream.
 *
 * <p>
 * Each logical client keeps one stream open for the whole run and opens a new one when it
 * ends: an SSE client resumes with {@code Last-Event-ID} (the last id it received) after
 * the reconnection time (the last {@code retry:} field received, else
 * {@code --reconnect-delay-ms}), as an {@code EventSource} does; a WebSocket client
 * reconnects after {@code --reconnect-delay-ms} whatever the close code. A stream that
 * never opened (refused, no answer within 15 s, or an answer other than 200/101) is
 * retried after {@code --refused-delay-ms} more. A stream that received nothing for
 * {@code --idle-timeout-ms} (5000; both kinds carry a message a second) is closed and
 * ends as stale, as a client's heartbeat timeout would end it. The clients start spread
 * over the first {@code n / --open-rate} seconds; the file {@code opened} appears once
 * every client has had a stream open. Every SSE and probe request says
 * {@code Connection: close}, so each stream and probe is a new connection that the proxy
 * balances (no connection pinned to an instance by a client pool).
 *
 * <p>
 * SSE ids are seconds, the same on every instance and consecutive: for each client an id
 * more than one above the last it received counts the ids between as lost, an id not
 * above it counts as delivered twice.
 *
 * <p>
 * The prober sends {@code GET --probe-path} at {@code --probe-rate} a second on a fixed
 * schedule whatever the answers (open loop); its latency runs from the scheduled instant
 * to the whole answer, so a stall of the client or the servers is counted, not omitted.
 *
 * <p>
 * Writes in {@code --out}: {@code streams.tsv} (one row per stream: kind client seq
 * start_ms open_ms end_ms instance end code events retry_ms; end is clean, broken, stale,
 * refused or open (still open at the stop); code the HTTP status, or the WebSocket close
 * code, 1006 (broken) when the connection closed without one), {@code probes.tsv}
 * (scheduled_ms latency_ms status instance; status the HTTP status or the exception's
 * class) and, at the stop, {@code summary.json} (the client's CPU, the events, lost and
 * twice, the counts of streams and probes, the failures by exception).
 *
 * <p>
 * Usage:
 * {@code StreamLoad --target=HOST:PORT --out=DIR --stop-file=PATH [--sse=1000] [--ws=1000]
 * [--open-rate=500] [--probe-rate=50] [--probe-path=/hello] [--reconnect-delay-ms=0]
 * [--refused-delay-ms=200] [--idle-timeout-ms=5000] [--max-seconds=3600]}. Run it with
 * {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=2} or more on a machine
 * of fewer than 3 cores: below 2 the JDK's HttpClient starts a thread for each of its
 * asynchronous completions.
 */
package dev.lifecycle.benchmarks.streams;
