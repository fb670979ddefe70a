package io.rewind.engine;

/**
 * The fault-tolerance SPI: what the engine asks of the protocol in force (the interposition layer,
 * like Open MPI's PML "V"). The engine defines it; protocols in {@code io.rewind.ft.*} implement it.
 * One instance per rank incarnation. {@link #NONE} does nothing and costs nothing.
 */
public interface FaultTolerance {
    /** The protocol's name, as in run records and on the command line. */
    String name();

    /**
     * Whether receivers track, per incoming channel, the highest sequence number that arrived:
     * frames are then admitted strictly in sequence order (early ones held, duplicates dropped).
     */
    default boolean tracksArrivals() {
        return false;
    }

    /**
     * Whether collectives run rooted (contributions to a root, results from it) so that every
     * message is a rank's contribution or the call's result, logged once at application level.
     */
    default boolean rootedCollectives() {
        return false;
    }

    /**
     * Called for every outgoing frame, under the channel's numbering lock, before it leaves.
     * Returns false when the frame must not be sent: the destination already has it (a restarted
     * rank re-executing). May log the payload and set a tee on the frame.
     */
    default boolean beforeSend(Communicator comm, Frame frame, int destinationWorld, boolean collectiveResult) {
        return true;
    }

    /** Called after the frame was handed over; returns once the send request may complete. */
    default void afterSend(Frame frame) {
    }

    /** A wildcard-source receive matched: record the outcome before the receive completes. */
    default void onWildcardMatch(long index, Frame frame) {
    }

    /** During replay, the outcome a wildcard-source receive must have, or null to match freely. */
    default ForcedMatch forcedWildcard(long index) {
        return null;
    }

    /** Records the outcome of a completion function or probe (test, testAny, iProbe...). */
    default void onPollOutcome(long index, long[] outcome) {
    }

    /** During replay, the recorded outcome of a completion function or probe, or null to run freely. */
    default long[] forcedPollOutcome(long index) {
        return null;
    }

    /** The recorded source, tag and sequence number a wildcard receive matched. */
    record ForcedMatch(int source, int tag, long sequence) {
    }

    /** No fault tolerance: every hook does nothing, and the engine skips them altogether. */
    FaultTolerance NONE = new FaultTolerance() {
        @Override
        public String name() {
            return "none";
        }
    };
}
