package io.rewind.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The job's standard input, which rank 0 reads (as under {@code mpirun}, the other ranks read an empty
 * stream). It is read from its source only as far as rank 0 asks, and every byte read is kept for the
 * job's life: a restarted rank 0 re-executes from its recovery line and must read the same bytes again
 * from the position it had there, and the source (a pipe, a terminal) can give them only once.
 *
 * <p>One daemon thread, started at the first read past what is kept, reads the source; readers wait for
 * it, each on the answer to its read, so a rank killed while it waits for input leaves no read of the source half done. Reads at any
 * offset up to what is kept are answered at once. A source that fails to read ends the input there (the
 * reason is printed once on standard error), as a closed stream would.
 */
public final class JobInput {
    /** Largest single read from the source, and largest answer to one remote read. */
    static final int CHUNK = 64 << 10;

    private final InputStream source;
    private byte[] kept = new byte[0];
    private int length;
    private boolean ended;
    /** Bytes readers wait for: the reader thread reads while this is past {@link #length}. */
    private long wantedUpTo;

    private Thread reader;
    private final List<Pending> pending = new ArrayList<>();

    private record Pending(long offset, int max, CompletableFuture<byte[]> answer) {}

    public JobInput(InputStream source) {
        this.source = source;
    }

    /** The input of a job of {@code config}: what it names, else this process's own standard input. */
    public static JobInput forJob(JobConfig config) {
        return new JobInput(
                config.program().input() != null ? config.program().input().get() : InputRouter.processInput());
    }

    /**
     * Reads up to {@code len} bytes at {@code offset} of the input into {@code b}, waiting until there are
     * some or the input has ended. Returns how many were read, or -1 at the end of the input.
     */
    public int read(long offset, byte[] b, int off, int len) throws InterruptedIOException {
        if (len == 0) {
            return 0;
        }
        try {
            return copyInto(readAsync(offset, len).get(), b, off);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for standard input");
        } catch (ExecutionException e) {
            throw new IllegalStateException("a read of standard input failed", e.getCause()); // never completed so
        }
    }

    /**
     * Copies an answer of {@link #readAsync} into {@code b} at {@code off}: how many bytes, or -1 for the
     * empty answer at the end of the input.
     */
    public static int copyInto(byte[] answer, byte[] b, int off) {
        if (answer.length == 0) {
            return -1;
        }
        System.arraycopy(answer, 0, b, off, answer.length);
        return answer.length;
    }

    /**
     * The bytes at {@code offset}, at most {@code max} and at least one, once there are some; an empty
     * array at the end of the input. For a rank 0 that runs in another process.
     */
    public CompletableFuture<byte[]> readAsync(long offset, int max) {
        CompletableFuture<byte[]> answer = new CompletableFuture<>();
        byte[] now = null;
        synchronized (this) {
            if (length > offset || ended) {
                now = slice(offset, max);
            } else {
                pending.add(new Pending(offset, max, answer));
                want(offset + 1);
            }
        }
        if (now != null) {
            answer.complete(now); // outside the lock: whoever waits on it may send it on at once
        }
        return answer;
    }

    /** Lock held. */
    private byte[] slice(long offset, int max) {
        if (offset >= length) {
            return new byte[0];
        }
        int n = (int) Math.min(Math.min(max, CHUNK), length - offset);
        return Arrays.copyOfRange(kept, (int) offset, (int) offset + n);
    }

    /** Lock held: makes the reader thread read until {@code upTo} bytes are kept (or the input ends). */
    private void want(long upTo) {
        if (upTo <= length || ended) {
            return;
        }
        wantedUpTo = Math.max(wantedUpTo, upTo);
        if (reader == null) {
            reader = Thread.ofPlatform().name("rewind-stdin").daemon(true).start(this::readSource);
        } else {
            notifyAll();
        }
    }

    private void readSource() {
        byte[] buf = new byte[CHUNK];
        while (true) {
            synchronized (this) {
                while (wantedUpTo <= length) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        return; // daemon: only the JVM's end stops it
                    }
                }
            }
            int n;
            try {
                n = source.read(buf);
            } catch (IOException e) {
                System.err.println("rewind: standard input could not be read, rank 0 sees its end: " + e.getMessage());
                n = -1;
            }
            List<Runnable> answers;
            boolean done;
            synchronized (this) {
                if (n < 0) {
                    ended = true;
                } else {
                    append(buf, n);
                }
                answers = answerable();
                done = ended;
            }
            answers.forEach(Runnable::run);
            if (done) {
                return;
            }
        }
    }

    /** Lock held. */
    private void append(byte[] buf, int n) {
        if (length + n > kept.length) {
            long grown = Math.max((long) length + n, 2L * kept.length);
            if (grown > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("standard input past 2 GiB: rank 0 cannot be given more of it");
            }
            kept = Arrays.copyOf(kept, (int) Math.max(grown, 4096));
        }
        System.arraycopy(buf, 0, kept, length, n);
        length += n;
    }

    /** Lock held: the remote reads that can be answered now, to complete once the lock is released. */
    private List<Runnable> answerable() {
        List<Runnable> out = new ArrayList<>();
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending p = pending.get(i);
            if (length > p.offset() || ended) {
                pending.remove(i);
                byte[] bytes = slice(p.offset(), p.max());
                out.add(() -> p.answer().complete(bytes));
            }
        }
        return out;
    }

    /** Bytes of the input read from its source so far (tests). */
    synchronized long kept() {
        return length;
    }
}
