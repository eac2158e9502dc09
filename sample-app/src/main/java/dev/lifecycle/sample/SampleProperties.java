package dev.lifecycle.sample;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The sample's own settings ({@code sample.*}). Every one has a default, so the jar runs
 * with no set-up; {@code application.yml} lists them all with a comment.
 *
 * @param dataDir where the database lives ({@code events.db}) and, by default, the
 * backups
 * @param db SQLite settings
 * @param ingest {@code POST /events} limits
 * @param pipeline the aggregation pipeline and its shutdown handler
 * @param backup the backup target, its fallback and the advisory health check
 * @param status the observability component's periodic status line
 * @param test switches that exist only so the process-level tests can break things on
 * purpose
 * @param grpc the gRPC ingestion service
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("./data") Path dataDir, @DefaultValue Db db, @DefaultValue Ingest ingest,
		@DefaultValue Pipeline pipeline, @DefaultValue Backup backup, @DefaultValue Status status,
		@DefaultValue Test test, @DefaultValue Grpc grpc) {

	/** The database file inside {@link #dataDir()}. */
	public Path databaseFile() {
		return this.dataDir.resolve("events.db");
	}

	/** The configured backup directory, or {@code <data-dir>/backups}. */
	public Path backupDir() {
		return (this.backup.dir() != null) ? this.backup.dir() : this.dataDir.resolve("backups");
	}

	/** The local fallback backup directory, or {@code <data-dir>/backups-local}. */
	public Path backupFallbackDir() {
		return (this.backup.fallbackDir() != null) ? this.backup.fallbackDir() : this.dataDir.resolve("backups-local");
	}

	/**
	 * @param synchronous SQLite {@code PRAGMA synchronous}: {@code FULL} (each ack
	 * survives power loss) or {@code NORMAL} (each ack survives a process crash; faster
	 * on slow disks)
	 * @param busyTimeout how long a write waits for the database's lock (held by another
	 * process, say) before it is refused with 503
	 * @param rebuildCheckpoint discard the checkpoint and recount every key from the log
	 * at this start: the way out when the start is refused because the checkpoint does
	 * not match the log (remove it afterwards)
	 */
	public record Db(@DefaultValue("FULL") String synchronous, @DefaultValue("5s") Duration busyTimeout,
			@DefaultValue("false") boolean rebuildCheckpoint) {
	}

	/**
	 * @param maxBodySize the largest request body accepted; larger ones get 413 without
	 * being read
	 * @param retryAfter the {@code Retry-After} sent with 503 (ingestion stopped,
	 * database locked) and 507 (disk full)
	 */
	public record Ingest(@DefaultValue("64KB") DataSize maxBodySize, @DefaultValue("5s") Duration retryAfter) {
	}

	/**
	 * @param batchSize how many log entries the pipeline reads at a time
	 * @param checkpointEvery checkpoint after this many processed events …
	 * @param checkpointInterval … or after this long with unsaved progress, whichever
	 * comes first
	 * @param idlePoll how long the pipeline sleeps when the log has nothing new (appends
	 * wake it early)
	 * @param stopTimeout how long the shutdown handler waits for STOPPED or FAILED
	 * (Arroyo: 120 s)
	 */
	public record Pipeline(@DefaultValue("500") int batchSize, @DefaultValue("1000") int checkpointEvery,
			@DefaultValue("2s") Duration checkpointInterval, @DefaultValue("200ms") Duration idlePoll,
			@DefaultValue("120s") Duration stopTimeout) {
	}

	/**
	 * @param dir the backup target directory (e.g. a mounted volume); default
	 * {@code <data-dir>/backups}
	 * @param fallbackDir used when the target is unhealthy; default
	 * {@code <data-dir>/backups-local}
	 * @param checkInterval how often the advisory component probes the target for
	 * writability
	 * @param keep how many backups to keep in a directory (older ones are deleted); 0
	 * keeps all
	 */
	public record Backup(Path dir, Path fallbackDir, @DefaultValue("5s") Duration checkInterval,
			@DefaultValue("5") int keep) {
	}

	/**
	 * @param interval how often the observability component logs a status line
	 */
	public record Status(@DefaultValue("30s") Duration interval) {
	}

	/**
	 * @param hangPipelineOnStop TEST ONLY: the pipeline never finishes stopping
	 * (exercises exit 129)
	 */
	public record Test(@DefaultValue("false") boolean hangPipelineOnStop) {
	}

	/**
	 * @param enabled whether the gRPC ingestion service
	 * ({@code lifecycle.sample.v1.Ingest}, beside {@code POST /events}) runs, on Spring
	 * Boot's gRPC server at {@code spring.grpc.server.port}; off by default, so that
	 * several instances on one host need no gRPC port each
	 */
	public record Grpc(@DefaultValue("false") boolean enabled) {
	}

}
