package dev.lifecycle.core.component;

import dev.lifecycle.core.ComponentState;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The engine's own state table and how each of its states shows outside the engine. */
class LifeStateTest {

	@Test
	void everyStateOfTheEngineShowsAsOneAUserCanObserveWithTheSameEnd() {
		for (LifeState state : LifeState.values()) {
			assertThat(state.shown().isTerminal()).as(state + " and " + state.shown() + " end alike")
				.isEqualTo(state.isTerminal());
			if (state.isTerminal()) {
				assertThat(state.shown().name()).isEqualTo(state.name());
			}
		}
		assertThat(LifeState.WORK_COMPLETED.shown()).isEqualTo(ComponentState.RUNNING);
		assertThat(LifeState.ENDING.shown()).isEqualTo(ComponentState.STOPPING);
	}

	@Test
	void noStateLeavesATerminalStateAndNoneSkipsBack() {
		for (LifeState from : LifeState.values()) {
			for (LifeState to : LifeState.values()) {
				if (from.isTerminal()) {
					assertThat(from.canMoveTo(to)).as(from + " -> " + to).isFalse();
				}
			}
			assertThat(from.canMoveTo(LifeState.REGISTERED)).as(from + " -> REGISTERED").isFalse();
			assertThat(from.canMoveTo(from)).as(from + " -> itself").isFalse();
		}
		assertThat(LifeState.STOPPING.canMoveTo(LifeState.RUNNING)).isFalse();
		assertThat(LifeState.ENDING.canMoveTo(LifeState.STOPPING)).isFalse();
	}

}
