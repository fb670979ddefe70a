package io.rewind.ft.sender;

import io.rewind.engine.Frame;
import io.rewind.ft.logger.DumpedPayload;

/**
 * The sender-side layer that keeps a rank's payload log under a quota by moving its oldest entries
 * out of the rank's memory (Algorithm 1 of "Addressing the last roadblock for message logging in
 * HPC"). The send path asks it for room before it logs a frame and lets it start a proactive dump
 * after; the replay layer asks it for payloads it moved out.
 *
 * <p>Two implementations: {@link #NONE} (no logger nodes: the log only grows) and {@link
 * LoggerSpill}, which dumps through the job's {@link io.rewind.ft.logger.LoggerClient} to logger
 * nodes, in this JVM ({@code LocalLoggerNode}) or logger processes ({@code RemoteLoggerNode}) alike:
 * where the loggers live is the {@link io.rewind.ft.logger.LoggerNode}'s business, not the rank's.
 *
 * <p>The rule every implementation keeps: no request to a logger is made, and no dump is waited for,
 * with the rank's lock held. What to dump is chosen under the lock; the round trip happens after.
 */
public interface LogSpill {
    /** Whether frames are spilled at all (false: none of the other methods does anything). */
    boolean spills();

    /** The most payload bytes the rank's log may hold in memory ({@code Long.MAX_VALUE}: no quota). */
    long quotaBytes();

    /** {@code bytes} of payload were appended to the log (the growth rate sizes dumps). Lock held. */
    void appended(long bytes);

    /**
     * Lock held; never waits: takes a finished dump in, and starts the next (on the spill's own thread)
     * once the log passes the dump threshold. One dump is under way at a time.
     */
    void dumpIfDue();

    /**
     * Lock <em>not</em> held: before {@code bytes} more are logged, at the quota, starts dumps and waits
     * for them (outside the lock) until they fit (Algorithm 1's blocking dump). If no logger takes
     * anything, the frame is logged over the quota and the job is told.
     *
     * @param channelQuota whether a channel quota (mcml) keeps the log too: then being over this quota
     *     is not reported, since the channel quota acts next
     */
    void makeRoom(long bytes, boolean channelQuota);

    /**
     * Lock <em>not</em> held: stores a frame longer than the whole quota straight at a logger (the
     * rank's log could never hold it); null if every logger declined.
     */
    DumpedPayload storeWhole(Frame frame, int worldRank, int destinationWorld, int incarnation);

    /** A payload this layer moved out, read back for a replay. */
    byte[] read(DumpedPayload payload);

    /** The incarnation ended: its dumps are released and the spill's thread stops. */
    void close(long peakLogBytes);

    /** No logger nodes: nothing is spilled. */
    LogSpill NONE = new LogSpill() {
        @Override
        public boolean spills() {
            return false;
        }

        @Override
        public long quotaBytes() {
            return Long.MAX_VALUE;
        }

        @Override
        public void appended(long bytes) {}

        @Override
        public void dumpIfDue() {}

        @Override
        public void makeRoom(long bytes, boolean channelQuota) {}

        @Override
        public DumpedPayload storeWhole(Frame frame, int worldRank, int destinationWorld, int incarnation) {
            return null;
        }

        @Override
        public byte[] read(DumpedPayload payload) {
            throw new IllegalStateException("no logger nodes: nothing was dumped");
        }

        @Override
        public void close(long peakLogBytes) {}
    };
}
