package dev.lifecycle.autoconfigure.web.servlet;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The servlet container's own request under any wrappers: the same object in every
 * dispatch of a request (an asynchronous dispatch may wrap it anew, as Tomcat's does),
 * and the one a server's own types can be read from.
 */
final class ContainerRequests {

	private ContainerRequests() {
	}

	static ServletRequest unwrap(ServletRequest request) {
		ServletRequest current = request;
		while (current instanceof ServletRequestWrapper wrapper) {
			current = wrapper.getRequest();
		}
		return current;
	}

	static HttpServletRequest unwrap(HttpServletRequest request) {
		return (unwrap((ServletRequest) request) instanceof HttpServletRequest http) ? http : request;
	}

}
