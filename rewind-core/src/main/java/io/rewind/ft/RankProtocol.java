package io.rewind.ft;

import io.rewind.engine.FaultTolerance;
import io.rewind.engine.RankEngine;
import io.rewind.ft.log.LogStatistics;
import java.util.Map;

/**
 * A protocol's part in one rank incarnation: the engine's hooks ({@link FaultTolerance}) plus what
 * the runtime asks of it around checkpoints and recoveries. Dies with its incarnation.
 */
public interface RankProtocol extends FaultTolerance {
    /** The rank wrote a checkpoint: what no recovery can ask for any more may be dropped. */
    default void afterCheckpoint() {}

    /** The rank wrote recovery line {@code line} (then {@link #afterCheckpoint()} follows). */
    default void wroteLine(long line) {}

    /** This incarnation starts from recovery line {@code line}; called before {@link #onStart}. */
    default void restartedFrom(long line) {}

    /**
     * Called on the rank's own thread before the program runs. {@code held} is what a restarted
     * incarnation's checkpoint holds per incoming channel (empty on a fresh start or a restart from
     * the beginning): a protocol that replays asks the other ranks for the rest here, and may wait
     * for their answers (waiting through {@link RankEngine#progress()}).
     */
    default void onStart(RankEngine engine, Map<Long, Long> held) {}

    /**
     * What the protocol keeps in the rank's checkpoint (null: nothing), taken on the rank's thread
     * right after the mailbox snapshot of the same checkpoint.
     */
    default byte[] checkpointState() {
        return null;
    }

    /**
     * For an incarnation that starts from a checkpoint: what {@link #checkpointState()} gave when that
     * line was written. Called before {@link #onStart}.
     */
    default void restoreState(byte[] state) {}

    /** Frames other ranks replayed to this incarnation so far. */
    default long replayedToThisRank() {
        return 0;
    }

    /** The payload log's figures, or null if the protocol keeps none. */
    default LogStatistics logStatistics() {
        return null;
    }

    /** Payload bytes the incarnation's log holds now (0 if it keeps none); sampled for the run record. */
    default long heldLogBytes() {
        return 0;
    }

    /**
     * Memory the incarnation's log holds now ({@link LogStatistics#memoryBytes()}: blocks in use, spare
     * and prepared ahead; 0 if it keeps none); sampled for the run record beside {@link #heldLogBytes()}.
     * Cheap enough to call every few hundred milliseconds from a thread other than the rank's.
     */
    default long heldLogMemoryBytes() {
        return 0;
    }

    /** Log entries and bytes made for messages of collectives. */
    default long[] collectiveLogFigures() {
        return new long[2];
    }

    /**
     * For protocols that piggyback determinants: how many the incarnation made, how many frames carried
     * some, and how many words they carried (zeros for the others).
     */
    default long[] determinantFigures() {
        return new long[3];
    }

    /** Frees what the incarnation held (it crashed or the job ended). */
    default void close() {}

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
