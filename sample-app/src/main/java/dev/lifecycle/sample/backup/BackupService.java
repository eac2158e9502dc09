package dev.lifecycle.sample.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import dev.lifecycle.sample.SampleProperties;
import dev.lifecycle.sample.store.EventStore;
import dev.lifecycle.sample.store.StoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * Takes consistent backups of the database ({@code VACUUM INTO} a temporary name, fsync, atomic
 * rename) into the backup target, or into the local fallback when the advisory
 * {@link BackupTarget} is unhealthy or the write to the target fails; keeps the newest
 * {@code sample.backup.keep} backups per directory.
 */
@Service
public class BackupService {

	/** Backup files are {@code events-<UTC timestamp>.db}, so names sort by age. */
	public static final String PREFIX = "events-";

	private static final Logger logger = LoggerFactory.getLogger(BackupService.class);

	private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'");

	private final EventStore store;

	private final BackupTarget target;

	private final int keep;

	@Autowired
	public BackupService(EventStore store, BackupTarget target, SampleProperties properties) {
		this(store, target, properties.backup().keep());
	}

	public BackupService(EventStore store, BackupTarget target, int keep) {
		this.store = store;
		this.target = target;
		this.keep = keep;
	}

	/**
	 * Backs the database up now and waits for the file to be complete.
	 * @return the backup file
	 * @throws StoreException if neither the target nor the fallback could be written
	 */
	public Path backup() {
		String name = PREFIX + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + ".db";
		Path directory;
		if (this.target.useTarget()) {
			directory = this.target.target();
		}
		else {
			directory = this.target.fallback();
			logger.warn("Backup: the backup target {} is unhealthy; writing to the local fallback {}",
					this.target.target(), directory);
		}
		long start = System.nanoTime();
		Path file;
		try {
			file = this.store.backupTo(directory, name);
		}
		catch (StoreException ex) {
			if (directory.equals(this.target.fallback())) {
				throw ex;
			}
			logger.warn("Backup: writing to the target failed ({}); trying the local fallback {}", ex.getMessage(),
					this.target.fallback());
			directory = this.target.fallback();
			file = this.store.backupTo(directory, name);
		}
		logger.info("Backup: wrote {} ({} bytes) in {} ms", file, size(file), (System.nanoTime() - start) / 1_000_000);
		prune(directory);
		return file;
	}

	private void prune(Path directory) {
		if (this.keep <= 0) {
			return;
		}
		try (Stream<Path> files = Files.list(directory)) {
			List<Path> backups = files
				.filter((p) -> p.getFileName().toString().startsWith(PREFIX) && p.getFileName().toString().endsWith(".db"))
				.sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed())
				.toList();
			for (Path old : backups.subList(Math.min(this.keep, backups.size()), backups.size())) {
				Files.deleteIfExists(old);
				logger.info("Backup: deleted old backup {}", old);
			}
		}
		catch (IOException ex) {
			logger.warn("Backup: could not prune old backups in {}", directory, ex);
		}
	}

	private static long size(Path file) {
		try {
			return Files.size(file);
		}
		catch (IOException ex) {
			return -1;
		}
	}

}
