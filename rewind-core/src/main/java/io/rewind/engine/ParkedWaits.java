package io.rewind.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Where the rank threads of this JVM park when they wait for a peer, and the one thread that wakes
 * them when their rank has something for them that nobody wakes them for: its incarnation ended (a
 * kill, a stop, the job's abort or end heard from the launcher), a replayed frame failed its check, or
 * its protocol has work to do (control messages, a replay to serve).
 *
 * <p>A waiting thread used to wake every 20 ms to look for itself. With 1024 rank threads in one JVM
 * that was 51,200 wake-ups a second on two cores, and the job's own hand-offs waited behind them: a
 * Ring's time grew with the square of its ranks. Now each rank's waiters park until woken, this watch
 * looks at every parked thread's rank every {@link #LOOK_EVERY_NANOS} (a few plain reads each) and
 * unparks only those whose rank needs them, so a waiting rank costs nothing while nothing happens and
 * what a waiter noticed within one slice before is still noticed within one look. A park is still
 * bounded, so that no wait outlives its cause should the watch miss one: by {@link #SAFETY_SLICE_NANOS},
 * or, with more than {@value #SAFETY_WAKE_UPS_PER_SECOND} threads parked, by as many milliseconds as
 * there are parked threads, so that these wake-ups stay about {@value #SAFETY_WAKE_UPS_PER_SECOND} a
 * second for the whole JVM. A slice of one second for each of 8192 rank threads was 8192 wake-ups a
 * second on two cores, each a thread that runs its wait loop and parks again, which is what a Ring of
 * 8192 ranks spent most of its time on.
 *
 * <p>The watch thread is a daemon started at the first park; it is the only thread this class owns.
 */
final class ParkedWaits {
    /** How often the watch looks at the parked threads. */
    static final long LOOK_EVERY_NANOS = 20_000_000L;
    /** The longest a parked thread sleeps without being woken, while at most a thousand are parked. */
    static final long SAFETY_SLICE_NANOS = 1_000_000_000L;
    /** About how many bounded parks may end by themselves each second in this JVM. */
    static final int SAFETY_WAKE_UPS_PER_SECOND = 1000;

    private static final Map<Thread, RankEngine> PARKED = new ConcurrentHashMap<>();
    private static volatile Thread watch;

    private ParkedWaits() {}

    /**
     * Registers the calling thread as a waiter of {@code engine} until {@link #leave}: the watch then
     * wakes it when the rank needs it.
     */
    static void enter(RankEngine engine) {
        PARKED.put(Thread.currentThread(), engine);
        if (watch == null) {
            startWatch();
        }
    }

    static void leave() {
        PARKED.remove(Thread.currentThread());
    }

    /** Parks the calling thread, registered by {@link #enter}, until woken or the safety slice ends. */
    static void park(Object blocker) {
        LockSupport.parkNanos(blocker, safetySlice(PARKED.size()));
    }

    /** The bound of one park with {@code parked} threads parked. */
    static long safetySlice(int parked) {
        return Math.max(SAFETY_SLICE_NANOS, parked * (1_000_000_000L / SAFETY_WAKE_UPS_PER_SECOND));
    }

    private static synchronized void startWatch() {
        if (watch != null) {
            return;
        }
        Thread t = new Thread(ParkedWaits::watchLoop, "rewind-wait-watch");
        t.setDaemon(true);
        t.start();
        watch = t;
    }

    private static void watchLoop() {
        while (true) {
            LockSupport.parkNanos(LOOK_EVERY_NANOS);
            for (Map.Entry<Thread, RankEngine> e : PARKED.entrySet()) {
                boolean wake;
                try {
                    wake = e.getValue().needsItsWaiters();
                } catch (RuntimeException | Error failure) {
                    wake = true; // the waiter's own look will meet the same and report it
                }
                if (wake) {
                    LockSupport.unpark(e.getKey());
                }
            }
        }
    }
}
