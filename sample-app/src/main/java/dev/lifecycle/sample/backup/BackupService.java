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

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Service;

/**
 * Takes consistent backups of the database ({@code VACUUM INTO} a temporary name, fsync,
 * atomic rename) into the backup target, or into the local fallback when the advisory
 * {@link BackupTarget} is unhealthy or the write to the target fails; keeps the newest
 * {@code sample.backup.keep} backups per directory, and removes at start the temporary
 * files of backups cut short by a kill. A backup directory belongs to one instance: give
 * each its own.
 */
@Service
public class BackupService implements InitializingBean {

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
				throw new StoreException("The backup failed: the target " + this.target.target()
						+ " is unhealthy and the fallback " + directory + " failed too (" + ex.getMessage() + ")", ex);
			}
			logger.warn("Backup: writing to the target failed ({}); trying the local fallback {}", ex.getMessage(),
					this.target.fallback());
			directory = this.target.fallback();
			try {
				file = this.store.backupTo(directory, name);
			}
			catch (StoreException fallbackFailure) {
				fallbackFailure.addSuppressed(ex);
				throw new StoreException("The backup failed on both the target (" + ex.getMessage()
						+ ") and the fallback (" + fallbackFailure.getMessage() + ")", fallbackFailure);
			}
		}
		logger.info("Backup: wrote {} ({} bytes) in {} ms", file, size(file), (System.nanoTime() - start) / 1_000_000);
		prune(directory);
		return file;
	}

	/**
	 * Removes the temporary files ({@code events-*.db.tmp}) that backups cut short by a
	 * kill left in the target and the fallback. A backup directory belongs to one
	 * instance (as pruning assumes too), and this one holds its data directory's lock, so
	 * no live backup writes them.
	 */
	@Override
	public void afterPropertiesSet() {
		for (Path directory : List.of(this.target.target(), this.target.fallback())) {
			if (!Files.isDirectory(directory)) {
				continue;
			}
			try (Stream<Path> files = Files.list(directory)) {
				for (Path leftover : files
					.filter((p) -> p.getFileName().toString().startsWith(PREFIX)
							&& p.getFileName().toString().endsWith(".db.tmp"))
					.toList()) {
					long size = size(leftover);
					Files.deleteIfExists(leftover);
					logger.warn("Backup: removed {} ({} bytes), left by a backup that was cut short (the process was "
							+ "killed)", leftover, size);
				}
			}
			catch (IOException ex) {
				logger.warn("Backup: could not remove leftover temporary files in {}", directory, ex);
			}
		}
	}

	private void prune(Path directory) {
		if (this.keep <= 0) {
			return;
		}
		try (Stream<Path> files = Files.list(directory)) {
			List<Path> backups = files.filter(
					(p) -> p.getFileName().toString().startsWith(PREFIX) && p.getFileName().toString().endsWith(".db"))
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
