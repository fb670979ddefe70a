package io.rewind.ft;

/** How far a live peer's incoming channel has arrived (the runtime knows the peers). */
@FunctionalInterface
public interface PeerFrontiers {
    /** Highest sequence number from {@code sourceWorld} on context {@code context} that {@code receiverWorld} holds. */
    long arrivedUpTo(int receiverWorld, int context, int sourceWorld);
}
