package io.rewind.ft.sender;

import io.rewind.engine.ChannelKey;
import io.rewind.engine.Frame;
import io.rewind.ft.log.LogEntry;
import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.PayloadLog;
import io.rewind.ft.logger.Dump;
import io.rewind.ft.logger.DumpedPayload;
import io.rewind.ft.logger.LoggerClient;
import io.rewind.ft.logger.LostPayloadException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Spills a rank's payload log to the job's logger nodes ({@link LogSpill} over a {@link
 * LoggerClient}). Asking a logger for room is a round trip to another process when the loggers are
 * processes (up to a minute before a dead one is given up): it never runs under the rank's lock. A
 * dump is chosen under the lock (the log's oldest entries, at most one dump under way), then started
 * by this spill's own thread, {@code rewind-log-spill-R} (one per rank incarnation, made on the first
 * dump, stopped by {@link #close}), which asks for room and hands the dump to the logger that
 * accepted; the logger copies it out of the log on its own thread. The rank takes the finished dump in
 * under its lock at its next send or wait.
 *
 * <p>State is guarded by the rank's lock ({@link Host#lock}), except where a method says otherwise.
 */
final class LoggerSpill implements LogSpill {
    /** What the spill needs of the rank whose log it keeps. */
    interface Host {
        /** The rank's logging lock, which guards the log's index and this spill's state. */
        Object lock();

        /** Payload bytes the rank's log holds in memory, or is about to (staged, in flight). Lock held. */
        long memoryHeld();

        /** Enters the payloads staged aside into the log (they count against the quota). Lock held. */
        void enterStaged();

        /** The channels of the rank's index, whose frames refer to log entries or dumped payloads. Lock held. */
        Iterable<SentFrames> channels();

        /** {@code bytes} of indexed payload left the rank's memory for a logger. Lock held. */
        void leftMemory(long bytes);
    }

    /** How long a rank at its quota waits for one dump before it logs over the quota (and says so). */
    private static final long DUMP_WAIT_NANOS = 10_000_000_000L;

    private final LoggerClient loggers;
    private final PayloadLog log;
    private final Host host;
    private final Object lock;
    private final String threadName;
    /** The thread that starts dumps (asks loggers for room); made on the first dump. Lock held to make it. */
    private ExecutorService thread;

    /** The one dump on its way to a logger, or null. Lock held. */
    private Dump dumpInFlight;
    /** A dump chosen and being started on the spill's thread (asking loggers for room), or null. Lock held. */
    private Starting starting;
    /** Payload bytes appended to the log by this incarnation, and at the last dump: the growth rate. */
    private long appendedBytes;

    private long appendedAtLastDump;
    private long lastDumpNanos = System.nanoTime();
    /** After every logger declined, proactive dumps wait until the log holds more than this. */
    private long retryDumpAbove;

    LoggerSpill(LoggerClient loggers, PayloadLog log, Host host, String threadName) {
        this.loggers = loggers;
        this.log = log;
        this.host = host;
        this.lock = host.lock();
        this.threadName = threadName;
        loggers.peakSource(() -> log.statistics().highWaterPayloadBytes());
    }

    @Override
    public boolean spills() {
        return true;
    }

    @Override
    public long quotaBytes() {
        return loggers.config().quotaBytes();
    }

    @Override
    public void appended(long bytes) {
        appendedBytes += bytes;
    }

    @Override
    public void dumpIfDue() {
        if (dumpInFlight != null) {
            if (!dumpInFlight.isDone()) {
                return;
            }
            takeInDump();
        }
        if (starting != null) {
            return;
        }
        long held = host.memoryHeld();
        if (held > loggers.config().thresholdBytes() && held > retryDumpAbove) {
            startDump(dumpSize());
        }
    }

    @Override
    public void makeRoom(long bytes, boolean channelQuota) {
        long quota = quotaBytes();
        long t0 = System.nanoTime();
        boolean waited = false;
        while (true) {
            Starting s;
            synchronized (lock) {
                if (host.memoryHeld() + bytes <= quota) {
                    break;
                }
                if (dumpInFlight != null && dumpInFlight.isDone()) {
                    takeInDump();
                    continue;
                }
                if (dumpInFlight == null && starting == null) {
                    host.enterStaged(); // staged payloads count against the quota; once entered they can be dumped
                    if (!startDump(Math.max(dumpSize(), host.memoryHeld() + bytes - quota))) {
                        break; // nothing in the log to dump
                    }
                }
                s = starting;
            }
            waited = true;
            // Waited for outside the lock: the rank's other threads (its progress, a replay, a send that
            // fits) go on meanwhile.
            if (s != null) {
                if (!await(s.done)) {
                    break;
                }
                synchronized (lock) {
                    if (s.declined) {
                        break; // every logger declined: logged over the quota
                    }
                }
                continue;
            }
            Dump d;
            synchronized (lock) {
                d = dumpInFlight;
            }
            if (d != null && !d.await(DUMP_WAIT_NANOS)) {
                break;
            }
        }
        synchronized (lock) {
            if (waited) {
                loggers.blocked(System.nanoTime() - t0);
            }
            if (host.memoryHeld() + bytes > quota && !channelQuota) {
                loggers.overQuota(host.memoryHeld() + bytes - quota);
            }
        }
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(DUMP_WAIT_NANOS, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** What a proactive dump takes: alpha times the log's growth rate, within an eighth and half the quota. */
    private long dumpSize() {
        long quota = quotaBytes();
        long now = System.nanoTime();
        double seconds = Math.max(1e-6, (now - lastDumpNanos) / 1e9);
        double rate = (appendedBytes - appendedAtLastDump) / seconds;
        long wanted = (long) Math.min(Long.MAX_VALUE / 2.0, loggers.config().alphaSeconds() * rate);
        return Math.max(Math.max(1, quota / 8), Math.min(quota / 2, wanted));
    }

    /** A dump chosen under the lock and being started on the spill's thread. */
    private static final class Starting {
        final CountDownLatch done = new CountDownLatch(1);
        /** Every logger declined it. Lock held. */
        boolean declined;
    }

    /**
     * Lock held: chooses the oldest {@code maxBytes} of the log and has the spill's thread ask the
     * loggers for room and hand the dump to one; false if the log holds nothing to dump (or the spill
     * is closed).
     */
    private boolean startDump(long maxBytes) {
        List<LogEntry> oldest = log.oldestEntries(maxBytes);
        if (oldest.isEmpty()) {
            return false;
        }
        Starting s = new Starting();
        long appendedAtStart = appendedBytes;
        long startNanos = System.nanoTime();
        starting = s;
        Runnable start = () -> {
            Dump d = null;
            try {
                d = loggers.startDump(oldest); // the round trip, outside the rank's lock
            } finally {
                synchronized (lock) {
                    starting = null;
                    if (d == null) {
                        s.declined = true;
                        loggers.declinedByAll();
                        retryDumpAbove = host.memoryHeld() + Math.max(1, quotaBytes() / 16);
                    } else {
                        dumpInFlight = d;
                        retryDumpAbove = 0;
                        appendedAtLastDump = appendedAtStart;
                        lastDumpNanos = startNanos;
                    }
                }
                s.done.countDown();
            }
        };
        if (thread == null) {
            thread = Executors.newSingleThreadExecutor(
                    Thread.ofPlatform().name(threadName).daemon(true).factory());
        }
        try {
            thread.execute(start);
        } catch (RejectedExecutionException e) {
            starting = null; // closed: the incarnation is over, and nothing more is dumped
            s.declined = true;
            s.done.countDown();
            return false;
        }
        return true;
    }

    /** Frame {@code frame} of {@code channel} carries entry {@code entry} of a dump. */
    private record FrameOfEntry(SentFrames channel, int frame, int entry) {}

    /**
     * Lock held: the dump in flight is done. Every frame whose payload a logger now holds refers to it
     * there, and the log lets those entries go.
     */
    private void takeInDump() {
        Dump d = dumpInFlight;
        dumpInFlight = null;
        List<LogEntry> entries = d.entries();
        IdentityHashMap<LogEntry, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            position.put(entries.get(i), i);
        }
        int[] references = new int[entries.size()];
        List<FrameOfEntry> frames = new ArrayList<>();
        List<Set<Integer>> destinations = new ArrayList<>(entries.size());
        for (int i = 0; i < entries.size(); i++) {
            destinations.add(new TreeSet<>());
        }
        for (SentFrames c : host.channels()) {
            for (int j = c.head(); j < c.tail(); j++) {
                Integer i = c.payload(j) instanceof LogEntry e ? position.get(e) : null;
                if (i != null) {
                    references[i]++;
                    destinations.get(i).add(ChannelKey.peer(c.key));
                    frames.add(new FrameOfEntry(c, j, i));
                }
            }
        }
        int[][] dests = new int[entries.size()][];
        for (int i = 0; i < dests.length; i++) {
            dests[i] = destinations.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
        DumpedPayload[] dumped = loggers.takeIn(d, dests, references);
        long left = 0;
        for (FrameOfEntry f : frames) {
            if (dumped[f.entry()] != null) {
                left += entries.get(f.entry()).lengthBytes();
                f.channel().dumped(f.frame(), dumped[f.entry()]);
            }
        }
        host.leftMemory(left);
        List<LogEntry> gone = new ArrayList<>();
        for (int i = 0; i < dumped.length; i++) {
            if (dumped[i] != null) {
                entries.get(i).movedTo(dumped[i]); // a collective's later frames find its result there
            }
            if (dumped[i] != null || references[i] == 0) {
                gone.add(entries.get(i));
            }
        }
        log.evict(gone);
    }

    @Override
    public DumpedPayload storeWhole(Frame frame, int worldRank, int destinationWorld, int incarnation) {
        long t0 = System.nanoTime();
        DumpedPayload stored = loggers.storeNow(
                new MessageKey(
                        frame.context(), worldRank, destinationWorld, frame.tag(), frame.sequence(), incarnation),
                frame.data(),
                frame.dataOffset(),
                frame.lengthBytes(),
                destinationWorld);
        if (stored != null) {
            loggers.blocked(System.nanoTime() - t0);
        }
        return stored;
    }

    @Override
    public byte[] read(DumpedPayload payload) {
        try {
            return loggers.readToArray(payload);
        } catch (LostPayloadException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    @Override
    public void close(long peakLogBytes) {
        ExecutorService t;
        synchronized (lock) {
            t = thread;
        }
        if (t != null) {
            t.shutdown(); // a start under way finishes (a logger's answer), then the thread ends
        }
        loggers.peakLog(peakLogBytes);
        loggers.close();
    }
}
