package dev.lifecycle.checks;

/**
 * A part of a manual page that a test generates from a declaration in code, between two
 * markers the page holds.
 *
 * @param page the page, relative to the repository's root
 * @param begin the marker before the part
 * @param end the marker after it
 */
record GeneratedPart(String page, String begin, String end) {

	/** The page with its part replaced by the given one. */
	String replace(String text, String part) {
		int from = text.indexOf(this.begin);
		int to = text.indexOf(this.end);
		if (from < 0 || to < from) {
			throw new IllegalStateException(this.page + " has no " + this.begin + " ... " + this.end + " part");
		}
		return text.substring(0, from + this.begin.length()) + "\n" + part + text.substring(to);
	}

	/** The part the page holds now, empty when it has none. */
	String current(String text) {
		int from = text.indexOf(this.begin);
		int to = text.indexOf(this.end);
		return (from < 0 || to < from) ? "" : text.substring(from + this.begin.length() + 1, to);
	}

	/** The page without its generated part. */
	String outside(String text) {
		int from = text.indexOf(this.begin);
		int to = text.indexOf(this.end);
		return (from < 0 || to < from) ? text : text.substring(0, from) + text.substring(to + this.end.length());
	}

}
