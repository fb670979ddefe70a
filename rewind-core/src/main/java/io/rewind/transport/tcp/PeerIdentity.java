package io.rewind.transport.tcp;

/** Who is at the other end of an authenticated connection: a world rank and its incarnation. */
public record PeerIdentity(int worldRank, int incarnation) {}
