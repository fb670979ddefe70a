package io.rewind.launch;

import io.rewind.ft.EventLogger;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The event logger of a job whose ranks are processes, as a process of its own, started by the
 * launcher on its host: the rank processes send it the outcomes of their non-deterministic events
 * (wildcard matches, polls) and a restarted rank fetches its own from it. Every outcome is written to
 * an append-only file ({@link EventJournal}) before it is acknowledged; if this process dies, the
 * launcher starts another on the same file, which reads back everything acknowledged, and the ranks
 * send it again whatever was waiting for an answer. It ends with its launcher.
 */
public final class EventLoggerProcess {
    private final EventLogger events;
    private static final long LAUNCHER_EXIT_WAIT_MS = 2_000;

    private final EventJournal journal;

    private EventLoggerProcess(EventLogger events, EventJournal journal) {
        this.events = events;
        this.journal = journal;
    }

    /**
     * {@code --head HOST:PORT --secret-file FILE --ranks N --journal FILE --bind local|all}: listens on
     * the interface that reaches the launcher ({@code local}: every process of the job is on this
     * host) or on every interface (ranks on other hosts reach it by the launcher's host name).
     */
    public static void main(String[] args) {
        Map<String, String> a = Args.parse(args, "--head", "--secret-file", "--ranks", "--journal", "--bind");
        int status = 0;
        long launcherPid = parentPid();
        try {
            JobSecret secret = JobSecret.fromArgument(a.get("--secret-file"));
            EventLogger events = new EventLogger(Integer.parseInt(a.get("--ranks")));
            EventJournal journal = EventJournal.open(Path.of(a.get("--journal")), events);
            Link launcher = Link.connect(Args.address(a.get("--head")), secret, "event-logger");
            EventLoggerProcess logger = new EventLoggerProcess(events, journal);
            try (LinkServer server = LinkServer.start(
                    "event-logger",
                    a.get("--bind").equals("all") ? null : launcher.localAddress(),
                    secret,
                    Link.CONTROL_MESSAGE_BYTES,
                    LinkServer.readingWith(logger::serve))) {
                CountDownLatch gone = new CountDownLatch(1);
                launcher.startReader(m -> logger.serve(launcher, m), why -> gone.countDown());
                launcher.send(new Messages.EventLoggerHello(
                        server.address().getAddress().getHostAddress(),
                        server.port(),
                        ProcessHandle.current().pid(),
                        events.events()));
                gone.await();
            }
            journal.close();
            if (launcherDied(launcherPid)) {
                removeJournal(Path.of(a.get("--journal")));
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("rewind: the event logger could not run: " + e);
            status = 1;
        } catch (InterruptedException e) {
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }

    /**
     * Whether the launcher, this process's parent, has ended: this process then has another parent
     * (the kernel hands the children of a process that exits to another as it exits, before anyone reaps
     * it, whereas {@link ProcessHandle#isAlive} holds until then). The link closes as the launcher's
     * sockets are closed, a moment before that, so this looks for up to {@value #LAUNCHER_EXIT_WAIT_MS} ms.
     */
    private static boolean launcherDied(long launcherPid) throws InterruptedException {
        if (launcherPid < 0) {
            return false;
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LAUNCHER_EXIT_WAIT_MS);
        do {
            long parent = parentPid();
            if (parent != launcherPid) {
                return true;
            }
            Thread.sleep(20); // polling the kernel's view of this process: no event to wait on
        } while (System.nanoTime() - deadline < 0);
        return false;
    }

    /** This process's parent's pid, -1 if it has none. */
    private static long parentPid() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    }

    /**
     * The launcher died (killed, say, with SIGKILL) and cannot remove the job's folder: the journal goes
     * with the job, which no one can continue from it (a resumed job restarts every rank from one line
     * and needs no determinant). While the launcher lives it may start another event logger on the same
     * journal, so only a dead launcher's journal is removed, and its folder once empty.
     */
    private static void removeJournal(Path journal) {
        try {
            Files.deleteIfExists(journal);
            Path folder = journal.getParent();
            if (folder != null) {
                Files.deleteIfExists(folder);
            }
        } catch (IOException e) {
            System.err.println(
                    "rewind: the event logger could not remove " + journal + " after its launcher died: " + e);
        }
    }

    /** In a connection's reader: one request of a rank, or of the launcher. */
    private void serve(Link link, Object m) {
        if (!(m instanceof Messages.Request r)) {
            return;
        }
        Serializable value = null;
        String error = null;
        try {
            switch (r.body()) {
                case Messages.RecordWildcard w -> {
                    journal.wildcard(w.rank(), w.index(), w.source(), w.tag(), w.sequence());
                    events.recordWildcard(w.rank(), w.index(), w.source(), w.tag(), w.sequence());
                }
                case Messages.RecordPoll p -> {
                    journal.poll(p.rank(), p.index(), p.outcome());
                    events.recordPoll(p.rank(), p.index(), p.outcome());
                }
                case Messages.FetchDeterminants f -> value = events.records(f.rank());
                case Messages.EventLogFigures f -> value = new long[] {events.events(), events.bytes()};
                default -> error = "unknown request " + r.body();
            }
        } catch (IOException e) {
            error = "the event journal cannot be written: " + e.getMessage();
        }
        link.send(new Messages.Answer(r.id(), value, error));
    }
}
