package dev.lifecycle.sample.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.sqlite.SQLiteConfig;

/**
 * A consistent copy of the whole database with {@code VACUUM INTO} (a snapshot: commits
 * that happen meanwhile are not in it), written to a temporary name, flushed to disk and
 * renamed atomically, so a file with the final name is always a complete database.
 */
final class StoreBackup {

	private StoreBackup() {
	}

	/**
	 * @param url the database's JDBC URL
	 * @param config the connection settings (busy timeout)
	 * @param directory where to write; created if missing
	 * @param fileName the backup's file name
	 * @return the backup file
	 * @throws StoreException if the backup could not be written (no file with the final
	 * name exists)
	 */
	static Path vacuumInto(String url, SQLiteConfig config, Path directory, String fileName) {
		Path target = directory.resolve(fileName);
		Path temp = directory.resolve(fileName + ".tmp");
		try {
			Files.createDirectories(directory);
			Files.deleteIfExists(temp);
			// A fresh connection and a fresh Statement: VACUUM INTO refuses to run next
			// to an open statement.
			try (Connection connection = DriverManager.getConnection(url, config.toProperties());
					PreparedStatement vacuum = connection.prepareStatement("VACUUM INTO ?")) {
				vacuum.setString(1, temp.toString());
				vacuum.execute();
			}
			try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE)) {
				channel.force(true);
			}
			Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
			forceDirectory(directory);
			return target;
		}
		catch (SQLException | IOException ex) {
			try {
				Files.deleteIfExists(temp);
			}
			catch (IOException ignored) {
				// best effort
			}
			throw new StoreException("Backup to " + target + " failed: " + ex, ex);
		}
	}

	private static void forceDirectory(Path directory) {
		try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
			channel.force(true);
		}
		catch (IOException ex) {
			// Not every platform can fsync a directory; the rename itself is still
			// atomic.
		}
	}

}
