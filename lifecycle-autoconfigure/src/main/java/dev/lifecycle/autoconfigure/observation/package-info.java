/**
 * The shutdown as Micrometer Observations: one for the sequence and one per step and
 * component, for traces. Loaded only with Micrometer Observation.
 */
@NullMarked
package dev.lifecycle.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
