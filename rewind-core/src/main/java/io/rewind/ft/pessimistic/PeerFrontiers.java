package io.rewind.ft.pessimistic;

/** How far a live peer's incoming channel from this rank has arrived (the runtime knows the peers). */
@FunctionalInterface
public interface PeerFrontiers {
    /** Highest sequence number from {@code sourceWorld} on communicator {@code context} that {@code receiverWorld} holds. */
    long arrivedUpTo(int receiverWorld, int context, int sourceWorld);
}
