package io.rewind.binding;

import io.rewind.api.StateSerializer;
import io.rewind.api.spi.RankBinding;
import io.rewind.api.spi.RankCheckpoints;
import io.rewind.api.spi.RankPatterns;
import io.rewind.engine.PatternState;
import io.rewind.runtime.StateSection;
import io.rewind.runtime.rank.CheckpointAgent;
import io.rewind.runtime.rank.RankContext;

/**
 * {@code io.rewind.api} bound to the runtime: the checkpoints are the rank's {@link CheckpointAgent},
 * the patterns its engine's {@link PatternState}. This class is defined per rank, like the API and
 * the {@code mpi} facade (its package is not one the rank loader shares), so the rank context it
 * finds through its own class loader is the rank's.
 */
public final class RuntimeBinding implements RankBinding {
    private final RankContext context = RankContext.of(RuntimeBinding.class);

    @Override
    public RankCheckpoints checkpoints() {
        CheckpointAgent agent = context.checkpoints();
        return agent == null ? null : new AgentCheckpoints(agent);
    }

    @Override
    public RankPatterns patterns() {
        return new EnginePatterns(context.engine().patterns());
    }

    private record AgentCheckpoints(CheckpointAgent agent) implements RankCheckpoints {
        @Override
        public boolean isRestart() {
            return agent.isRestart();
        }

        @Override
        public boolean restore() {
            return agent.restore();
        }

        @Override
        public boolean point() {
            return agent.point();
        }

        @Override
        public long points() {
            return agent.points();
        }

        @Override
        public void register(String name, StateSerializer section) {
            agent.register(name, new StateSection() {
                @Override
                public byte[] save() {
                    return section.save();
                }

                @Override
                public void load(byte[] bytes) {
                    section.load(bytes);
                }
            });
        }
    }

    private record EnginePatterns(PatternState state) implements RankPatterns {
        @Override
        public int declare() {
            return state.declare();
        }

        @Override
        public void begin(int pattern) {
            state.begin(pattern);
        }

        @Override
        public void end(int pattern) {
            state.end(pattern);
        }

        @Override
        public int iteration(int pattern) {
            return state.iteration(pattern);
        }

        @Override
        public int active() {
            return state.activePatternId();
        }
    }
}
