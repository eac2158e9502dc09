package dev.lifecycle.core.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.lifecycle.core.Internal;
import dev.lifecycle.core.ReportCodec;
import dev.lifecycle.core.ShutdownRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shutdown report files next to a run marker: their names (numbered, never dated, so
 * a wrong clock cannot make an old one look newest), atomic replacement, pruning and
 * reading. Only files that hold a report are ever replaced or deleted; a file named like
 * one that is not is left alone.
 */
@Internal
public final class ReportFiles {

	/**
	 * Larger than any report this writes (its parts are bounded); a larger file is not
	 * read.
	 */
	static final long MAX_REPORT_BYTES = 16L * 1024 * 1024;

	/**
	 * Enough of a file's beginning to see its first member, the schema, whatever the
	 * layout.
	 */
	private static final int HEAD_BYTES = 256;

	/** Digits of the sequence number in a report's name, so names also sort in order. */
	private static final int SEQUENCE_DIGITS = 12;

	private static final Logger logger = LoggerFactory.getLogger(ReportFiles.class);

	private final Path directory;

	private final String base;

	/** The report files of the run marker at this path. */
	public ReportFiles(Path marker) {
		Path absolute = marker.toAbsolutePath();
		this.directory = (absolute.getParent() != null) ? absolute.getParent() : Path.of(".");
		String name = marker.getFileName().toString();
		this.base = name.endsWith(".running") ? name.substring(0, name.length() - ".running".length()) : name;
	}

	Path directory() {
		return this.directory;
	}

	/** The path of a new report, numbered after every report already there. */
	Path next() {
		long highest = 0;
		for (Path report : list()) {
			highest = Math.max(highest, sequence(report));
		}
		return this.directory.resolve(name(this.base, highest + 1));
	}

	/** This service's reports, oldest first: by sequence number, never by the clock. */
	public List<Path> list() {
		List<Path> reports = new ArrayList<>();
		if (!Files.isDirectory(this.directory)) {
			return reports;
		}
		try (DirectoryStream<Path> stream = Files.newDirectoryStream(this.directory, this.base + ".shutdown-*.json")) {
			for (Path path : stream) {
				if (sequence(path) >= 0) {
					reports.add(path);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Lifecycle: could not list shutdown reports in {}: {}", this.directory, ex.toString());
		}
		reports.sort(Comparator.comparingLong(this::sequence).thenComparing(Path::toString));
		return reports;
	}

	public static String name(String base, long sequence) {
		return base + ".shutdown-" + String.format(Locale.ROOT, "%0" + SEQUENCE_DIGITS + "d", sequence) + ".json";
	}

	/**
	 * The sequence number in a report's name; 0 for a name an earlier release gave by the
	 * time (ordered before every numbered one), -1 for a name that is not a report's at
	 * all.
	 */
	long sequence(Path file) {
		String name = file.getFileName().toString();
		String prefix = this.base + ".shutdown-";
		if (!name.startsWith(prefix) || !name.endsWith(".json") || name.length() < prefix.length() + ".json".length()) {
			return -1;
		}
		String middle = name.substring(prefix.length(), name.length() - ".json".length());
		if (middle.length() == SEQUENCE_DIGITS && middle.chars().allMatch((c) -> c >= '0' && c <= '9')) {
			return Long.parseLong(middle);
		}
		return 0;
	}

	/**
	 * Replaces the file atomically with the report's text; a failure is logged and never
	 * thrown. Only a report replaces a report: a path found holding anything else is left
	 * as it is.
	 */
	void write(Path target, String text) {
		Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
		try {
			Files.createDirectories(this.directory);
			if (!replaceable(temporary) || !replaceable(target)) {
				logger.error("Lifecycle: not writing the shutdown report {}: something that is not a shutdown report "
						+ "is in its place", target);
				return;
			}
			Files.writeString(temporary, text, StandardCharsets.UTF_8);
			try {
				Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Lifecycle: could not write the shutdown report {}: {}", target, ex.toString());
		}
	}

	/**
	 * Keeps the newest reports and removes temporary files a killed write left behind.
	 */
	void prune(int keep) {
		List<Path> reports = list();
		for (int i = 0; i < reports.size() - keep; i++) {
			delete(reports.get(i));
		}
		try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(this.directory,
				this.base + ".shutdown-*.json.tmp")) {
			for (Path leftover : leftovers) {
				delete(leftover);
			}
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Lifecycle: could not list {}", this.directory, ex);
		}
	}

	/**
	 * The report in a file, or empty with one WARN naming the file and saying why it was
	 * skipped; never throws.
	 */
	Optional<ShutdownRecord> read(Path file) {
		String problem;
		try {
			if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
				problem = "not a regular file";
			}
			else if (Files.size(file) > MAX_REPORT_BYTES) {
				problem = "larger than " + MAX_REPORT_BYTES + " bytes";
			}
			else {
				byte[] bytes = Files.readAllBytes(file);
				ReportCodec.Result result = ReportCodec.read(new String(bytes, StandardCharsets.UTF_8));
				if (result instanceof ReportCodec.Read read) {
					return Optional.of(read.record());
				}
				problem = ((ReportCodec.Rejected) result).reason();
			}
		}
		catch (IOException | RuntimeException ex) {
			problem = "cannot be read (" + ex.getClass().getSimpleName() + ")";
		}
		logger.warn("Lifecycle: skipping {}: {}", file, problem);
		return Optional.empty();
	}

	/** Nothing is there, or a report (whole, or cut short by a killed write). */
	private static boolean replaceable(Path path) {
		return !Files.exists(path, LinkOption.NOFOLLOW_LINKS) || isReport(path);
	}

	/**
	 * Whether a file is a shutdown report, whole or cut short: a regular file (not a
	 * link) whose first member is the report's schema.
	 */
	public static boolean isReport(Path path) {
		if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		try (InputStream in = Files.newInputStream(path, LinkOption.NOFOLLOW_LINKS)) {
			return ReportCodec.beginsAsReport(new String(in.readNBytes(HEAD_BYTES), StandardCharsets.UTF_8));
		}
		catch (IOException | RuntimeException ex) {
			return false;
		}
	}

	/** Deletes a report; a file that is not one stays where it is. */
	private static void delete(Path path) {
		if (!isReport(path)) {
			logger.warn("Lifecycle: {} is named like a shutdown report but is not one; leaving it", path);
			return;
		}
		try {
			Files.deleteIfExists(path);
		}
		catch (IOException ex) {
			logger.warn("Lifecycle: could not delete {}: {}", path, ex.toString());
		}
	}

}
