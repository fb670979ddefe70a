package io.rewind.engine;

/**
 * Sent by a restarted rank to every other rank when it starts: from now on, frames of its earlier
 * incarnations are dropped (a thread of the dead incarnation, such as one running a non-blocking
 * collective, may still be sending). Handled by the receiving mailbox itself.
 */
public record IncarnationNotice(int sourceWorld, int incarnation) implements ControlMessage {}
