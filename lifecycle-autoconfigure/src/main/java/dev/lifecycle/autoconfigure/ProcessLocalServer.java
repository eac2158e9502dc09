package dev.lifecycle.autoconfigure;

import dev.lifecycle.core.Internal;

/**
 * A server lifecycle bean that only clients inside this process may reach (an in-process
 * gRPC server): the components and beans that call it are its only clients, so adoption
 * stops it after all of them, and it sends no client elsewhere while the application
 * drains.
 */
@Internal
public interface ProcessLocalServer {

	/** Whether, as configured, only clients inside this process can reach the server. */
	boolean servesOnlyThisProcess();

}
