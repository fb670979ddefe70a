package io.rewind.ft.sender;

import io.rewind.engine.Contexts;

/**
 * What one rank incarnation's sender side counts for the run record and the benchmarks: log entries
 * and bytes made for collectives (a shared result counts once), frames a restarted rank skipped
 * because their receiver held them already, and frames replayed to this incarnation. Frames it
 * replayed to others are the replay layer's ({@link ReplayServer#replayedFrames}). Guarded by the
 * rank's logging lock.
 */
final class SenderStatistics {
    private long collectiveEntries;
    private long collectiveBytes;
    private long skippedFrames;
    private long replayedIn;

    /** A frame was logged: it counts if it carries a collective's message. */
    void logged(int context, long lengthBytes) {
        if (Contexts.isCollective(context)) {
            collectiveEntries++;
            collectiveBytes += lengthBytes;
        }
    }

    /** A restarted rank did not send a frame again: its receiver holds it. */
    void skipped() {
        skippedFrames++;
    }

    /** A replay batch of {@code frames} frames reached this incarnation. */
    void replayedIn(long frames) {
        replayedIn += frames;
    }

    long collectiveEntries() {
        return collectiveEntries;
    }

    long collectiveBytes() {
        return collectiveBytes;
    }

    long skippedFrames() {
        return skippedFrames;
    }

    long replayedIn() {
        return replayedIn;
    }
}
