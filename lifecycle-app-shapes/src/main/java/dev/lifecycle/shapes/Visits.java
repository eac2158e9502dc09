package dev.lifecycle.shapes;

/**
 * What the page needs of the visit log; injected by interface, as JDK proxies require.
 */
public interface Visits {

	long record(String page);

}
