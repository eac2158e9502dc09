/**
 * A graceful GOAWAY on HTTP/2 connections from the first instant of a shutdown, one class
 * per server (Tomcat, Jetty, Reactor Netty), each loaded only with its server.
 */
@NullMarked
package dev.lifecycle.autoconfigure.web.http2;

import org.jspecify.annotations.NullMarked;
