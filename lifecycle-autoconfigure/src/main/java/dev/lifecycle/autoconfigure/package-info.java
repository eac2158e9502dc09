/**
 * Spring Boot integration for Lifecycle.
 */
package dev.lifecycle.autoconfigure;
