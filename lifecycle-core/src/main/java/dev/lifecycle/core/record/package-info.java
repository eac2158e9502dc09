/**
 * The engine's persisted records: the run marker, the report files beside it, their JSON,
 * the recorder that writes a shutdown's record as it goes, and the previous run read back
 * at the next start. Internal: every public type here is
 * {@link dev.lifecycle.core.Internal}; the record a file holds and its codec are the API
 * ({@code ShutdownRecord}, {@code ReportCodec}). It depends on the API package
 * {@code dev.lifecycle.core} alone: it is the lowest floor.
 */
@NullMarked
package dev.lifecycle.core.record;

import org.jspecify.annotations.NullMarked;
