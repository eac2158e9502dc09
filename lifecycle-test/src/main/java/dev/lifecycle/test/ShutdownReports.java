package dev.lifecycle.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.lifecycle.core.ShutdownRecord;

/**
 * The shutdown reports a process left next to its run marker
 * ({@code lifecycle.run-marker.path}), read through the codec that wrote them
 * ({@link ShutdownRecord#read(Path)}), for a test that runs the application in a child
 * JVM and stops it with a real signal. Check them with
 * {@link LifecycleAssertions#assertThat(ShutdownRecord)}.
 */
public final class ShutdownReports {

	private ShutdownReports() {
	}

	/**
	 * The newest report next to a run marker.
	 * @param runMarker the run marker's path
	 * @return its newest report
	 * @throws IllegalStateException if there is none
	 * @throws IllegalArgumentException if the newest file is not a shutdown report
	 * @throws UncheckedIOException if it cannot be read
	 */
	public static ShutdownRecord newest(Path runMarker) {
		List<Path> files = ShutdownRecord.files(runMarker);
		if (files.isEmpty()) {
			throw new IllegalStateException("No shutdown report next to the run marker " + runMarker);
		}
		return read(files.get(files.size() - 1));
	}

	/**
	 * Every report next to a run marker, oldest first.
	 * @param runMarker the run marker's path
	 * @return the reports, empty when there are none
	 * @throws IllegalArgumentException if a file named as a report is not one
	 * @throws UncheckedIOException if one cannot be read
	 */
	public static List<ShutdownRecord> all(Path runMarker) {
		List<ShutdownRecord> records = new ArrayList<>();
		for (Path file : ShutdownRecord.files(runMarker)) {
			records.add(read(file));
		}
		return records;
	}

	private static ShutdownRecord read(Path file) {
		try {
			return ShutdownRecord.read(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
