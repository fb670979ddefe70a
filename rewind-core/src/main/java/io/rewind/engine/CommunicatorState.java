package io.rewind.engine;

/**
 * The counters of one communicator at a checkpoint.
 *
 * @param context            the communicator's context
 * @param sendSequence       last point-to-point sequence number sent to each member
 * @param collectiveSendSequence last sequence number of collective messages sent to each member
 * @param collectiveSequence collectives called so far
 * @param creations          communicators created from it so far
 */
public record CommunicatorState(
        int context, long[] sendSequence, long[] collectiveSendSequence, int collectiveSequence, long creations) {}
