package io.rewind.ft.log;

/**
 * One direction of communication inside one communicator: the unit in which sequence numbers are
 * counted and in which a receiver's checkpoint makes logged messages obsolete.
 *
 * @param contextId communicator context id (the engine's private collective context counts as its
 *     own communicator)
 * @param source sending rank, in the communicator's numbering
 * @param destination receiving rank, in the communicator's numbering
 */
public record Channel(int contextId, int source, int destination) {

    public Channel {
        if (source < 0) {
            throw new IllegalArgumentException("source rank must be >= 0, got " + source);
        }
        if (destination < 0) {
            throw new IllegalArgumentException("destination rank must be >= 0, got " + destination);
        }
    }
}
