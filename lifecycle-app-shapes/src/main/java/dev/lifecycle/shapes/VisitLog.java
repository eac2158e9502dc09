package dev.lifecycle.shapes;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A transactional service: a CGLIB proxy, or a JDK one when proxies are interface-based.
 */
@Service
@Transactional
class VisitLog implements Visits {

	private final VisitRepository repository;

	VisitLog(VisitRepository repository) {
		this.repository = repository;
	}

	@Override
	public long record(String page) {
		this.repository.save(new Visit(page));
		return this.repository.countByPage(page);
	}

}
