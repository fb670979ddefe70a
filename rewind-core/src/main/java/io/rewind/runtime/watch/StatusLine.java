package io.rewind.runtime.watch;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * A status line on a terminal: redrawn in place on standard error ({@code \r}, the text, erase to the
 * end of the line) every {@link #EVERY_MILLIS} ms by a daemon thread of its own, and cleared before
 * anything else reaches the terminal. Everything Rewind and the ranks print goes through its streams
 * ({@link #out}, {@link #err}), which clear the line first; it is drawn only while both streams stand
 * at the start of a line, so it never lands inside a line being printed.
 */
public final class StatusLine {
    static final long EVERY_MILLIS = 250;
    /** Clears the line the cursor is on: back to its start, erase to its end. */
    private static final String CLEAR = "\r\033[K";

    private final PrintStream terminal;
    private final Supplier<String> text;
    private final int width;
    private final Object lock = new Object();
    private final PrintStream out;
    private final PrintStream err;
    /** Whether each stream (out, err) has ended its last line. */
    private final boolean[] atLineStart = {true, true};

    private boolean shown;
    private boolean stopped;
    private Thread drawer;

    /**
     * @param realOut  the process's standard output
     * @param realErr  the process's standard error, a terminal, where the line is drawn
     * @param text     the line's text, asked for at each redraw
     * @param width    the terminal's width: a longer text is cut, as a wrapped line could not be redrawn
     */
    public StatusLine(PrintStream realOut, PrintStream realErr, Supplier<String> text, int width) {
        this.terminal = realErr;
        this.text = text;
        this.width = Math.max(20, width);
        this.out = new PrintStream(new Clearing(realOut, 0), true, StandardCharsets.UTF_8);
        this.err = new PrintStream(new Clearing(realErr, 1), true, StandardCharsets.UTF_8);
    }

    /** Whether standard error is a terminal a status line can be drawn on (a console, not redirected). */
    public static boolean onTerminal() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal() && System.getenv("TERM") != null && !"dumb".equals(System.getenv("TERM"));
    }

    /** The terminal's width as the shell says it ({@code COLUMNS}), else 80. */
    public static int terminalWidth() {
        try {
            String columns = System.getenv("COLUMNS");
            return columns == null ? 80 : Integer.parseInt(columns.trim());
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    /** Standard output through this line: it is cleared before anything is printed. */
    public PrintStream out() {
        return out;
    }

    /** Standard error through this line, as {@link #out}. */
    public PrintStream err() {
        return err;
    }

    /** Starts redrawing. */
    public synchronized void start() {
        if (drawer != null) {
            return;
        }
        drawer = Thread.ofPlatform().name("rewind-status").daemon(true).start(this::redrawUntilStopped);
    }

    /** Stops redrawing and clears the line; bounded: the drawer is waited for one redraw at most. */
    public void stop() {
        Thread t;
        synchronized (lock) {
            stopped = true;
            clear();
            t = drawer;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(2 * EVERY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void redrawUntilStopped() {
        while (true) {
            synchronized (lock) {
                if (stopped) {
                    return;
                }
                if (atLineStart[0] && atLineStart[1]) {
                    String line = text.get();
                    if (line.length() >= width) {
                        line = line.substring(0, width - 1);
                    }
                    terminal.print(CLEAR + line);
                    terminal.flush();
                    shown = true;
                }
            }
            try {
                Thread.sleep(EVERY_MILLIS); // the redraw period, not a wait for anything
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Under the lock: the line goes, so the next output starts on a clean line. */
    private void clear() {
        if (shown) {
            terminal.print(CLEAR);
            terminal.flush();
            shown = false;
        }
    }

    /** A stream of the process's whose output first clears the status line. */
    private final class Clearing extends OutputStream {
        private final PrintStream target;
        private final int stream;

        Clearing(PrintStream target, int stream) {
            this.target = target;
            this.stream = stream;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (len == 0) {
                return;
            }
            synchronized (lock) {
                clear();
                target.write(b, off, len);
                atLineStart[stream] = b[off + len - 1] == '\n';
            }
        }

        @Override
        public void flush() {
            target.flush();
        }
    }
}
