package io.rewind.runtime;

import io.rewind.notice.RuntimeNotices;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Routes {@code System.out} and {@code System.err} of rank threads to their job, line by line, with
 * an optional {@code [rank]} prefix, and keeps each rank's lines for the job result. Threads that
 * belong to no rank (and threads of a JVM where no job ever ran) print as usual. Installed when a
 * job starts (again only if the host swapped the streams since); the rank of a thread is inherited
 * by the threads it starts.
 */
public final class OutputRouter {
    /** Lines kept per rank for the job result; older ones are dropped (the live stream still gets all). */
    static final int MAX_CAPTURED_LINES = 100_000;

    private static final InheritableThreadLocal<Binding> CURRENT = new InheritableThreadLocal<>();

    /** A thread's rank output, shown while {@code live} says so and dropped after. */
    private record Binding(RankOutput output, java.util.function.BooleanSupplier live) {}
    /** The routing streams last installed; null before the first job. */
    private static PrintStream installedOut;

    private static PrintStream installedErr;
    /** The stream {@link #installedErr} wraps: where threads of no rank print. */
    private static PrintStream installedErrOriginal;

    private OutputRouter() {}

    /**
     * Makes {@code System.out} and {@code System.err} route rank output. Idempotent; if the host
     * replaced either stream since the last install (a test capturing output, say), the new one is
     * wrapped, so rank output is never lost to a stream swapped in and out between jobs.
     */
    public static synchronized void install() {
        RuntimeNotices.unroutedTo(OutputRouter::printUnrouted);
        if (System.out != installedOut) {
            installedOut = new PrintStream(new Routing(System.out, false), true, StandardCharsets.UTF_8);
            System.setOut(installedOut);
        }
        if (System.err != installedErr) {
            installedErrOriginal = System.err;
            installedErr = new PrintStream(new Routing(System.err, true), true, StandardCharsets.UTF_8);
            System.setErr(installedErr);
        }
    }

    /**
     * Prints {@code line} to the standard error that threads of no rank print to, whichever thread
     * calls: the runtime's notices ({@link RuntimeNotices}), never part of a rank's output.
     */
    static void printUnrouted(String line) {
        PrintStream err;
        synchronized (OutputRouter.class) {
            err = System.err == installedErr ? installedErrOriginal : System.err;
        }
        err.println(line);
    }

    /** The streams a launcher prints to directly, bypassing routing (the process's real stdout/stderr). */
    public static PrintStream rawStdout() {
        return new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    }

    /**
     * The calling thread, and the threads it starts, print to {@code output} while {@code live} holds;
     * after, what they print is dropped (the thread of a crashed incarnation).
     */
    public static void bind(RankOutput output, java.util.function.BooleanSupplier live) {
        CURRENT.set(new Binding(output, live));
    }

    public static void unbind() {
        CURRENT.remove();
    }

    /** Whether the calling thread prints to {@code output}: it is one of that rank's threads. */
    public static boolean boundTo(RankOutput output) {
        Binding b = CURRENT.get();
        return b != null && b.output() == output;
    }

    /**
     * One rank's output: a line buffer per stream, a sink, and the captured lines. It spans the
     * rank's incarnations: a restarted incarnation re-executes from its recovery line and prints again
     * what its predecessor printed after that line; those lines are suppressed ({@link #rewindTo}), so
     * the job's output is that of a run without the crash. A crash loses the line being written, as a
     * killed process loses what it had not flushed.
     */
    public static final class RankOutput {
        private final String prefix;
        private final PrintStream sinkOut;
        private final PrintStream sinkErr;
        private final ByteArrayOutputStream outLine = new ByteArrayOutputStream();
        private final ByteArrayOutputStream errLine = new ByteArrayOutputStream();
        private final List<String> captured = new ArrayList<>();
        /** Whole lines the current incarnation's execution has printed, per stream (out, err). */
        private final long[] printed = new long[2];
        /** Whole lines shown, per stream: the most any incarnation has printed. */
        private final long[] shown = new long[2];

        public RankOutput(int rank, boolean tag, PrintStream sinkOut, PrintStream sinkErr) {
            this.prefix = tag ? "[" + rank + "] " : "";
            this.sinkOut = sinkOut;
            this.sinkErr = sinkErr;
        }

        public synchronized void write(boolean err, byte[] b, int off, int len) {
            ByteArrayOutputStream line = err ? errLine : outLine;
            int start = off;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    line.write(b, start, i - start);
                    emit(err, line);
                    start = i + 1;
                }
            }
            line.write(b, start, off + len - start);
        }

        private void emit(boolean err, ByteArrayOutputStream line) {
            int stream = err ? 1 : 0;
            if (++printed[stream] <= shown[stream]) {
                line.reset(); // printed before the crash already
                return;
            }
            shown[stream] = printed[stream];
            String text = line.toString(StandardCharsets.UTF_8);
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            line.reset();
            if (captured.size() >= MAX_CAPTURED_LINES) {
                captured.removeFirst();
            }
            captured.add(text);
            PrintStream sink = err ? sinkErr : sinkOut;
            if (sink != null) {
                sink.println(prefix + text);
            }
        }

        public synchronized void flush() {
            if (outLine.size() > 0) {
                emit(false, outLine);
            }
            if (errLine.size() > 0) {
                emit(true, errLine);
            }
        }

        /** How many lines the rank has printed so far, per stream (saved with a checkpoint). */
        public synchronized long[] position() {
            return printed.clone();
        }

        /**
         * A new incarnation resumes from a point where the rank had printed {@code position} lines: the
         * lines printed since are suppressed when it prints them again. The partial line of the
         * incarnation that crashed is dropped.
         */
        public synchronized void rewindTo(long[] position) {
            dropPartial();
            printed[0] = position[0];
            printed[1] = position[1];
        }

        /** Drops the lines being written (a crash: they were never flushed). */
        public synchronized void dropPartial() {
            outLine.reset();
            errLine.reset();
        }

        public synchronized List<String> lines() {
            return List.copyOf(captured);
        }
    }

    private static final class Routing extends OutputStream {
        private final PrintStream original;
        private final boolean err;

        Routing(PrintStream original, boolean err) {
            this.original = original;
            this.err = err;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            Binding o = CURRENT.get();
            if (o == null) {
                original.write(b, off, len);
            } else if (o.live().getAsBoolean()) {
                o.output().write(err, b, off, len);
            }
        }

        @Override
        public void flush() {
            Binding o = CURRENT.get();
            if (o == null) {
                original.flush();
            }
        }
    }
}
