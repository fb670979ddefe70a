package io.rewind.ft;

import io.rewind.engine.FaultTolerance;
import io.rewind.engine.Transport;
import io.rewind.ft.log.LogStatistics;

import java.util.Map;

/**
 * A protocol's part in one rank incarnation: the engine's hooks ({@link FaultTolerance}) plus what
 * the runtime asks of it around checkpoints and recoveries. Dies with its incarnation.
 */
public interface RankProtocol extends FaultTolerance {
    /** The rank wrote a checkpoint: what no recovery can ask for any more may be dropped. */
    default void afterCheckpoint() {
    }

    /**
     * Peer {@code peer} restarted holding, per incoming channel, the messages up to {@code held}
     * (its checkpoint's arrival frontiers, keyed as the engine keys channels): sends it again, through
     * {@code transport}, what it needs from this rank, in order. Returns how many frames were sent.
     */
    default long replayTo(int peer, Map<Long, Long> held, Transport transport) {
        return 0;
    }

    /** The payload log's figures, or null if the protocol keeps none. */
    default LogStatistics logStatistics() {
        return null;
    }

    /** Log entries and bytes made for messages of collectives. */
    default long[] collectiveLogFigures() {
        return new long[2];
    }

    /** Frees what the incarnation held (it crashed or the job ended). */
    default void close() {
    }

    /** No protocol: the engine skips every hook. */
    RankProtocol NONE = new RankProtocol() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public boolean interposes() {
            return false;
        }
    };
}
