/**
 * The end of WebSocket sessions with 1001 (going away) at the streams' turn: Spring's
 * servlet and reactive WebSocket support and plain Jakarta WebSocket endpoints on Tomcat
 * and Jetty.
 */
@NullMarked
package dev.lifecycle.autoconfigure.web.socket;

import org.jspecify.annotations.NullMarked;
