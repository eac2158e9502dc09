package dev.lifecycle.sample.store;

import java.math.BigInteger;

/**
 * The aggregated state of one key. The sum is exact at any size: no sequence of accepted
 * events can overflow it, so the pipeline (live or replaying the log) can never fail on
 * an event it was given.
 *
 * @param sum the sum of the values
 * @param count the number of events
 */
public record Aggregate(BigInteger sum, long count) {

	/** The empty aggregate. */
	public static final Aggregate ZERO = new Aggregate(BigInteger.ZERO, 0);

	/**
	 * An aggregate whose sum fits a {@code long}.
	 * @param sum the sum
	 * @param count the number of events
	 */
	public Aggregate(long sum, long count) {
		this(BigInteger.valueOf(sum), count);
	}

	/** This aggregate with one more event. */
	public Aggregate plus(long value) {
		return new Aggregate(this.sum.add(BigInteger.valueOf(value)), this.count + 1);
	}

	/** This aggregate and another one together. */
	public Aggregate plus(Aggregate other) {
		return new Aggregate(this.sum.add(other.sum), this.count + other.count);
	}

}
