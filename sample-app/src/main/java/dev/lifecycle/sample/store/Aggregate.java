package dev.lifecycle.sample.store;

/**
 * The aggregated state of one key.
 *
 * @param sum the sum of the values
 * @param count the number of events
 */
public record Aggregate(long sum, long count) {

	/** The empty aggregate. */
	public static final Aggregate ZERO = new Aggregate(0, 0);

	/** This aggregate with one more event. */
	public Aggregate plus(long value) {
		return new Aggregate(this.sum + value, this.count + 1);
	}

}
