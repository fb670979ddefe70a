package io.rewind.transport.shm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.MappedByteBuffer;

/**
 * The doorbell of one rank incarnation on its host: a page of its own ({@code bell-R.K}) holding a
 * sequence word, which its poller sleeps on with a futex, and a flag that says whether it sleeps.
 *
 * <p>A sender that has committed a record to one of the rank's rings does {@link #ringIfAsleep}: a full
 * fence, then a read of the flag, and only if it is set an increment of the word and a futex wake (a
 * system call). The poller sets the flag, fences, looks at its rings once more, and sleeps only if they
 * are empty and the word still holds what it read before setting the flag. Either the sender sees the
 * flag, or the poller sees the record (both fence between their write and their read), so no record
 * waits for a sleeper that was never woken. While the rank's own thread polls its rings, the flag is
 * clear and sending costs no system call.
 */
final class Bell {
    static final int BYTES = 4096;
    private static final long WORD = 0;
    private static final long SLEEPING = 64;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    /** Kept so that the mapping lives as long as this bell. */
    @SuppressWarnings("unused")
    private final MappedByteBuffer mapped;

    private final MemorySegment page;
    private final MemorySegment word;

    Bell(MappedByteBuffer mapped) {
        if (mapped.capacity() < BYTES) {
            throw new IllegalStateException("a bell page of " + mapped.capacity() + " bytes");
        }
        this.mapped = mapped;
        this.page = MemorySegment.ofBuffer(mapped);
        this.word = page.asSlice(WORD, Integer.BYTES);
    }

    static String fileName(int rank, int incarnation) {
        return "bell-" + rank + "." + incarnation;
    }

    /** After a commit, in the sending process: wakes the receiver's poller if it sleeps. */
    void ringIfAsleep() {
        VarHandle.fullFence();
        if ((int) INT.getVolatile(page, SLEEPING) != 0) {
            ring();
        }
    }

    /** Wakes the poller whether it sleeps or not (its own process, to hand it the rings at once). */
    void ring() {
        int ignored = (int) INT.getAndAdd(page, WORD, 1);
        Futex.wake(word);
    }

    // --- the receiving side ------------------------------------------------------------------------

    /** The word's value, read before {@link #sleeping(boolean) sleeping(true)} and passed to {@link #sleep}. */
    int sequence() {
        return (int) INT.getVolatile(page, WORD);
    }

    void sleeping(boolean asleep) {
        INT.setVolatile(page, SLEEPING, asleep ? 1 : 0);
        VarHandle.fullFence();
    }

    /** Sleeps while the word holds {@code sequence}, at most {@code nanos}. */
    void sleep(int sequence, long nanos, MemorySegment timespec) {
        Futex.await(word, sequence, nanos, timespec);
    }

    /** Native memory for one thread's {@link #sleep} calls. */
    static MemorySegment timespec() {
        return Futex.timespec(Arena.ofAuto());
    }
}
