package dev.lifecycle.shapes;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;

/** A JPA entity. */
@Entity
public class Visit {

	@Id
	@GeneratedValue
	private Long id;

	private String page;

	protected Visit() {
	}

	Visit(String page) {
		this.page = page;
	}

	Long getId() {
		return this.id;
	}

	String getPage() {
		return this.page;
	}

}
