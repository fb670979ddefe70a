package io.rewind.engine;

/**
 * A message between the protocols of two ranks (a rollback request, a last-message answer, replay
 * credit), carried by the same transport as frames but never matched by a receive. Its sender's
 * incarnation travels with it: a receiver that hears from an incarnation fences every older one of
 * that rank (their frames are dropped from then on). The receiving rank handles it during its own
 * progress ({@link FaultTolerance#onControl}), never in the thread that delivered it.
 */
public interface ControlMessage {
    /** World rank of the sender. */
    int sourceWorld();

    /** Incarnation of the sender. */
    int incarnation();
}
