package io.rewind.launch;

import io.rewind.ft.logger.BlockStore;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.Serializable;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * One logger node of a job whose ranks are processes, as a process of its own started by the
 * launcher: rank processes ask it for room, send it dumped blocks of their payload logs, read
 * payloads back for replay and release blocks their checkpoints made obsolete. It keeps them in its
 * memory ({@link BlockStore}, bounded by {@code --capacity}); if it dies they are gone (the launcher
 * rolls back the senders of what a failed rank then needs). It ends with its launcher.
 */
public final class LoggerProcess {
    private final BlockStore store;
    /** The dump request at which this process kills itself (0: never), for tests and demonstrations. */
    private final long dieAt;

    private final int index;

    private LoggerProcess(int index, long capacity, Path folder, long dieAt) {
        this.index = index;
        this.store = new BlockStore(capacity, folder);
        this.dieAt = dieAt;
    }

    /**
     * {@code --head HOST:PORT --secret-file FILE|- --index I --capacity BYTES --die-at N --folder DIR|-}
     * (blocks as files in DIR, or in memory): listens on the
     * interface that reaches the launcher, as a rank process does, and says which (the ranks reach it
     * the same way). {@code -}: the job's secret comes on standard input (started over ssh or srun).
     */
    public static void main(String[] args) {
        Map<String, String> a =
                Args.parse(args, "--head", "--secret-file", "--index", "--capacity", "--die-at", "--folder");
        int status = 0;
        int index = Integer.parseInt(a.get("--index"));
        try {
            JobSecret secret = JobSecret.fromArgument(a.get("--secret-file"));
            String folder = a.get("--folder");
            LoggerProcess logger = new LoggerProcess(
                    index,
                    Long.parseLong(a.get("--capacity")),
                    folder.equals("-") ? null : Path.of(folder),
                    Long.parseLong(a.get("--die-at")));
            Link launcher = Link.connect(Args.address(a.get("--head")), secret, "logger-" + index);
            try (LinkServer server = LinkServer.start(
                    "logger-" + index,
                    launcher.localAddress(),
                    secret,
                    Link.STORAGE_MESSAGE_BYTES,
                    LinkServer.readingWith(logger::serve))) {
                CountDownLatch gone = new CountDownLatch(1);
                launcher.startReader(m -> logger.serve(launcher, m), why -> gone.countDown());
                launcher.send(new Messages.LoggerHello(
                        index,
                        server.address().getAddress().getHostAddress(),
                        server.port(),
                        ProcessHandle.current().pid()));
                gone.await();
            }
            synchronized (logger.store) {
                logger.store.clear(); // the job is over: blocks kept as files go too
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("rewind: logger " + index + " could not run: " + e);
            status = 1;
        } catch (InterruptedException e) {
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }

    /** Dies as a crashed node does: SIGKILL, nothing flushed, nothing said. */
    private static void killItself() {
        try {
            new ProcessBuilder(
                            "kill", "-9", Long.toString(ProcessHandle.current().pid()))
                    .start()
                    .waitFor();
        } catch (IOException e) {
            // no kill command: halting loses the memory just the same
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Runtime.getRuntime().halt(137);
    }

    /** In a connection's reader: one request of a rank, or of the launcher. */
    private void serve(Link link, Object m) {
        if (!(m instanceof Messages.Request r)) {
            return;
        }
        Serializable value = null;
        String error = null;
        try {
            synchronized (store) {
                switch (r.body()) {
                    case Messages.ReserveLog b -> {
                        if (dieAt > 0 && store.requests() + 1 >= dieAt) {
                            System.err.println("rewind: logger " + index + " kills itself at its dump request "
                                    + (store.requests() + 1) + " (--kill-logger)");
                            killItself();
                        }
                        value = store.reserve(b.bytes());
                    }
                    case Messages.StoreBlock s -> value = store.put(s.data(), s.crc(), s.reserved(), s.messages());
                    case Messages.ReadBlock b -> {
                        // length -1: the whole block (a replay takes the messages dumped together at once)
                        int length = b.length() < 0 ? store.blockBytes(b.id()) : b.length();
                        byte[] out = new byte[length];
                        store.read(b.id(), b.offset(), MemorySegment.ofArray(out), 0, length);
                        value = out;
                    }
                    case Messages.ReleaseBlocks b -> {
                        for (int i = 0; i < b.ids().length; i++) {
                            store.release(b.ids()[i], b.counts()[i]);
                        }
                    }
                    case Messages.LoggerFigures f -> value = store.figures();
                    default -> error = "unknown request " + r.body();
                }
            }
        } catch (RuntimeException e) {
            error = "logger " + index + ": " + e.getMessage();
        }
        link.send(new Messages.Answer(r.id(), value, error));
    }
}
