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
     * Whether the engine calls the hooks below at all. Only {@link #NONE} says no: without a
     * protocol, the engine skips event numbering and logging altogether.
     */
    default boolean interposes() {
        return true;
    }

    /**
     * Whether receivers track, per incoming channel, the highest sequence number that arrived:
     * frames are then admitted strictly in sequence order (early ones held, duplicates dropped).
     */
    default boolean tracksArrivals() {
        return false;
    }

    /**
     * Whether the sender keeps a copy of every payload (sender-based payload logging). A send then
     * never waits for its receive: the copy into the log frees the buffer, and a long message is
     * pulled by its receiver while the sender logs it.
     */
    default boolean logsPayloads() {
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
     * Sends a numbered frame: hands it to {@code transport} unless the destination already holds it
     * (a restarted rank re-executing), and records what the protocol keeps of it. Called after the
     * frame was numbered, outside the engine's locks; two threads of a rank may call it at once (on
     * different contexts). A logging protocol hands the frame off first and logs it after,
     * so that the receiver does not wait for the log; the copy may then finish in {@link #afterSend}.
     *
     * @return false when the frame was not handed off because the destination already has it
     */
    default boolean send(Frame frame, int destinationWorld, SharedPayload shared, Transport transport) {
        transport.send(destinationWorld, frame);
        return true;
    }

    /** Called after {@link #send}, outside any lock; returns once the send request may complete. */
    default void afterSend(Frame frame) {}

    /**
     * The send numbered {@code sequence} on {@code context} to {@code destinationWorld} was cancelled:
     * withdrawn before any receive took it, so no replay may deliver it. Called once, by the thread
     * that completes the cancelled send (the owner, or a transport thread for a receiver elsewhere).
     */
    default void onSendCancelled(int context, int destinationWorld, long sequence) {}

    /**
     * Whether the send numbered {@code sequence} on {@code context} to {@code destinationWorld} may be
     * withdrawn if its receiver has not taken it. False when the run without failures may have had it
     * received though the receiver's current incarnation has not yet: the cancel then fails and the
     * send completes as sent, its message left for the receiver (MPI lets any cancel fail).
     */
    default boolean mayCancel(int context, int destinationWorld, long sequence) {
        return true;
    }

    /**
     * The rank is about to wait for a request that is not complete: work the protocol deferred may
     * be done now, while the rank has nothing else to do. Called on the rank's thread.
     */
    default void whileWaiting() {}

    /**
     * A control message from another rank's protocol, handed over during this rank's progress (on the
     * rank's thread or a thread of one of its non-blocking operations, never concurrently).
     */
    default void onControl(ControlMessage message, Transport transport) {}

    /**
     * Progress: work the protocol does on its own behalf while the rank communicates or waits, such as
     * sending the next part of a replay. Called often; must return at once when there is nothing to
     * do. Never called concurrently.
     */
    default void progress(Transport transport) {}

    /** Whether {@link #progress} has anything to do now (read on every operation: keep it a plain read). */
    default boolean hasProgressWork() {
        return false;
    }

    /**
     * Whether frames may carry protocol words ({@link Frame#piggyback()}) that this rank's protocol
     * must read when they arrive ({@link #onPiggyback}).
     */
    default boolean readsPiggybacks() {
        return false;
    }

    /**
     * A frame carrying protocol words arrived from an incarnation that is not fenced: called once per
     * arriving frame, duplicates and early frames included, before the frame can be matched (so that
     * nothing the rank does after taking the message is done without them). Called under the
     * mailbox's lock, on whatever thread delivers the frame: the protocol must not call into the
     * mailbox or block.
     */
    default void onPiggyback(Frame frame) {}

    /** A wildcard-source receive matched: record the outcome before the receive completes. */
    default void onWildcardMatch(long index, Frame frame) {}

    /** During replay, the outcome a wildcard-source receive must have, or null to match freely. */
    default ForcedMatch forcedWildcard(long index) {
        return null;
    }

    /** Records the outcome of a completion function or probe (test, testAny, iProbe...). */
    default void onPollOutcome(long index, long[] outcome) {}

    /**
     * Records the outcome of a completion function (test, testAll, testAny, testSome, waitAny,
     * waitSome): like {@link #onPollOutcome}, for protocols that tell which requests completed first
     * apart from which message a probe saw (a pattern id orders matching, not completion).
     */
    default void onCompletionOutcome(long index, long[] outcome) {
        onPollOutcome(index, outcome);
    }

    /** During replay, the recorded outcome of a completion function or probe, or null to run freely. */
    default long[] forcedPollOutcome(long index) {
        return null;
    }

    /** The recorded source, tag and sequence number a wildcard receive matched. */
    record ForcedMatch(int source, int tag, long sequence) {}

    /** No fault tolerance: every hook does nothing, and the engine skips them altogether. */
    FaultTolerance NONE = new FaultTolerance() {
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
