/**
 * The drain of Spring gRPC servers: the standard health service turns NOT_SERVING at the
 * first instant of a shutdown, the server sends GOAWAY when the drain delay ends,
 * long-lived streams end with a status clients retry on, and calls still running at the
 * server's budget are cancelled and named. Loaded only when Spring gRPC is on the class
 * path.
 */
@NullMarked
package dev.lifecycle.autoconfigure.grpc;

import org.jspecify.annotations.NullMarked;
