package io.rewind.engine;

/**
 * A message of a recovery that is not the one the execution before the failure had: a replay whose
 * payload differs from what its sender logged, or a send that a restarted rank re-executed
 * differently from the original its receiver holds. Found by replay verification ({@link
 * MessageDigests}); nothing a program can do about it, so it ends the job, naming the channel and the
 * sequence number.
 *
 * @param replay      true: a replayed message failed its check at its receiver; false: a re-executed
 *                    send failed its check at its sender
 * @param context     the channel's matching context
 * @param sourceWorld the sending world rank
 * @param destinationWorld the receiving world rank
 * @param sequence    the message's number on its channel
 * @param expected    the digest of the message as first sent
 * @param actual      the digest of the message as replayed or re-executed
 */
public record ReplayMismatch(
        boolean replay, int context, int sourceWorld, int destinationWorld, long sequence, int expected, int actual) {

    /** One line, naming the protocol that recovered. */
    public String describe(String protocol) {
        String channel = "channel " + sourceWorld + " -> " + destinationWorld + " (context " + context + "), sequence "
                + sequence;
        return "replay verification failed under protocol " + protocol + ": "
                + (replay
                        ? "the message replayed on " + channel + " is not the one rank " + sourceWorld + " logged"
                        : "rank " + sourceWorld + " re-executed the send of " + channel
                                + " differently from the message rank " + destinationWorld + " received")
                + String.format(" (digest %08x, expected %08x)", actual, expected);
    }

    /** The error that ends the rank, and with it the job. */
    public ReplayMismatchError error(String protocol) {
        return new ReplayMismatchError(describe(protocol));
    }

    /**
     * Thrown in a rank's thread once a mismatch is found: an {@link Error}, so that a program that
     * catches MPI exceptions does not swallow it; the job ends with its one line.
     */
    public static final class ReplayMismatchError extends Error {
        ReplayMismatchError(String message) {
            super(message, null, false, false);
        }
    }
}
