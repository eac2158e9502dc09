package dev.lifecycle.sample.store;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Reads a checkpoint (its offset, time and aggregates) from any database with the event
 * store's schema, in one read transaction, handing the aggregates over one row at a time.
 */
final class CheckpointReader {

	private CheckpointReader() {
	}

	/**
	 * @param connection an open connection
	 * @param each receives every key's aggregate
	 * @return the checkpoint's offset and time; its aggregates are empty, they went to
	 * {@code each}
	 * @throws SQLException on a read failure
	 */
	static Checkpoint read(Connection connection, BiConsumer<String, Aggregate> each) throws SQLException {
		boolean autoCommit = connection.getAutoCommit();
		connection.setAutoCommit(false);
		try (Statement statement = connection.createStatement()) {
			long offset = 0;
			String updatedAt = null;
			try (ResultSet row = statement.executeQuery("SELECT log_offset, updated_at FROM checkpoint WHERE id = 1")) {
				if (row.next()) {
					offset = row.getLong(1);
					updatedAt = row.getString(2);
				}
			}
			try (ResultSet rows = statement.executeQuery("SELECT key, sum, count FROM aggregates")) {
				while (rows.next()) {
					// Text in the current schema; an integer in a legacy (version 1)
					// file, read the same way.
					each.accept(rows.getString(1), new Aggregate(sum(rows.getString(2)), rows.getLong(3)));
				}
			}
			return new Checkpoint(offset, Map.of(), updatedAt);
		}
		finally {
			connection.rollback();
			connection.setAutoCommit(autoCommit);
		}
	}

	/**
	 * A stored sum, shared where the running pipeline would share it: small sums are the
	 * JDK's cached values there, so a restart must not make one object per key of them.
	 */
	private static BigInteger sum(String text) {
		if (text.length() <= 18) {
			return BigInteger.valueOf(Long.parseLong(text));
		}
		return new BigInteger(text);
	}

}
