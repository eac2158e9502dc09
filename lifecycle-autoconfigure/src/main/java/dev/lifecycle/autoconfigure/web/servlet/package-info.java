/**
 * Connection drain on the servlet stacks (Tomcat, Jetty): {@code Connection: close} after
 * each response once a shutdown began, chunked framing kept, pipelined requests answered,
 * and the servers' own answers in classes named for them. Loaded only with the servlet
 * API.
 */
@NullMarked
package dev.lifecycle.autoconfigure.web.servlet;

import org.jspecify.annotations.NullMarked;
