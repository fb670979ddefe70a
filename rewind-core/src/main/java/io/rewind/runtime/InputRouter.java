package io.rewind.runtime;

import java.io.IOException;
import java.io.InputStream;

/**
 * Routes {@code System.in} of rank threads: rank 0 reads the job's standard input, the other ranks an
 * empty stream, as {@code mpirun} gives it by default. Threads that belong to no rank read the
 * process's own standard input as usual. Installed once per JVM; the rank of a thread is inherited by
 * the threads it starts, as for {@link OutputRouter}.
 */
public final class InputRouter {
    private static final InheritableThreadLocal<RankInput> CURRENT = new InheritableThreadLocal<>();
    /** The process's standard input as it was before routing; null before {@link #install()}. */
    private static InputStream original;

    private InputRouter() {}

    /** Makes {@code System.in} route rank reads. Idempotent. */
    public static synchronized void install() {
        if (original == null) {
            original = System.in;
            System.setIn(new Routing());
        }
    }

    /** The process's standard input, unrouted: what a job reads when no other input is given. */
    static synchronized InputStream processInput() {
        return original != null ? original : System.in;
    }

    public static void bind(RankInput input) {
        CURRENT.set(input);
    }

    public static void unbind() {
        CURRENT.remove();
    }

    /**
     * One rank's standard input across its incarnations: the job's input for rank 0, nothing for the
     * others. It counts the bytes the current incarnation has read, which a checkpoint saves and a
     * restart goes back to, so a re-executing rank reads again exactly what it read after its recovery
     * line.
     */
    public static final class RankInput {
        /** The job's input ({@link JobInput#read} or a remote read); null: the rank reads an empty stream. */
        private final Source source;

        private long position;
        /**
         * Taken by the rank's threads one at a time across a read, so each gets bytes of its own, as from
         * a shared stream. A new one for every restart: a thread of a crashed incarnation still waiting
         * for input holds only its own, and a read made under an earlier one counts for nothing.
         */
        private Object turn = new Object();

        /** Where a rank's bytes come from: bytes at an offset of the job's input, -1 at its end. */
        @FunctionalInterface
        public interface Source {
            int read(long offset, byte[] b, int off, int len) throws IOException;
        }

        /** Rank 0 reads {@code source}; any other rank reads nothing. */
        public RankInput(int rank, Source source) {
            this.source = rank == 0 ? source : null;
        }

        int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (source == null) {
                return -1;
            }
            Object myTurn;
            synchronized (this) {
                myTurn = turn;
            }
            synchronized (myTurn) {
                long at;
                synchronized (this) {
                    at = position;
                }
                int n = source.read(at, b, off, len);
                synchronized (this) {
                    if (n > 0 && turn == myTurn) {
                        position = at + n;
                    }
                }
                return n;
            }
        }

        /** Bytes of the input the current incarnation has read (saved with a checkpoint). */
        public synchronized long position() {
            return position;
        }

        /** A new incarnation resumes from a point where the rank had read {@code position} bytes. */
        public synchronized void rewindTo(long position) {
            this.position = position;
            turn = new Object();
        }
    }

    private static final class Routing extends InputStream {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n;
            do {
                n = read(one, 0, 1);
            } while (n == 0);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            RankInput in = CURRENT.get();
            return in == null ? original.read(b, off, len) : in.read(b, off, len);
        }

        @Override
        public int available() throws IOException {
            RankInput in = CURRENT.get();
            return in == null ? original.available() : 0;
        }
    }
}
