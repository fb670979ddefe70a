package io.rewind.engine;

/**
 * Creates communicators without messages, through a service of the job that outlives every rank:
 * each member states its colour and key for the parent's n-th creation, and all members get the
 * same answer. A restarted rank asking again for a creation it made before its crash gets the
 * recorded answer at once, without its peers, which is what makes communicator creation replayable.
 */
public interface CommunicatorFactory {
    /**
     * Blocks until every member of {@code parent} has asked for creation number {@code creationIndex},
     * then returns this rank's part: the context and group of its new communicator, or null if it
     * belongs to none (negative colour).
     *
     * @param explicitGroup for creation from a group, the group's world ranks in order; null for split
     */
    Created create(Communicator parent, long creationIndex, int color, int key, int[] explicitGroup);

    /** The new communicator of one member: its context (even) and group as world ranks, with its rank. */
    record Created(int context, int[] groupWorldRanks, int rank) implements java.io.Serializable {}
}
