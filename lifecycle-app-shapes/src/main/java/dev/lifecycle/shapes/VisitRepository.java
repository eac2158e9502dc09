package dev.lifecycle.shapes;

import org.springframework.data.jpa.repository.JpaRepository;

/** A Spring Data JPA repository: a FactoryBean whose product is a JDK proxy. */
interface VisitRepository extends JpaRepository<Visit, Long> {

	long countByPage(String page);

}
