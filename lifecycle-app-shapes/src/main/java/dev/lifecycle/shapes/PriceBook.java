package dev.lifecycle.shapes;

import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.cache.annotation.Cacheable;
import org.springframework.stereotype.Component;

/** A cached lookup: a caching proxy. */
@Component
class PriceBook {

	final AtomicInteger lookups = new AtomicInteger();

	@Cacheable("prices")
	public int price(String item) {
		this.lookups.incrementAndGet();
		return item.length();
	}

}
