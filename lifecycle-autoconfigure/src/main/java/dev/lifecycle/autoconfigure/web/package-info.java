/**
 * What every web stack's drain shares: the point at which long-lived streams end and the
 * registry of the servers' GOAWAY senders. The stacks are in the sub-packages.
 */
@NullMarked
package dev.lifecycle.autoconfigure.web;

import org.jspecify.annotations.NullMarked;
