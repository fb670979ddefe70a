package io.rewind.transport.tcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The I/O of a transport's authenticated connections, done by whoever is there to do it: the rank's
 * own thread while it busy-polls in a wait ({@link #poll()}), this poller's thread ({@code
 * rewind-tcp-<rank>-poller}) otherwise.
 *
 * <p>Reading. All inbound streams are read under one guard, taken by compare-and-set and never waited
 * for: a thread that finds it taken goes on (the holder reads). A thread holding it only reads and hands
 * records to the sink, which only enqueues (or copies into a posted receive), so it never blocks there.
 *
 * <p>Who reads. While a caller polls, the poller's thread stays off the sockets: it parks and looks again
 * every {@value #DEFER_MILLIS} ms, so data arriving for a spinning rank wakes no other thread. When the
 * caller stops ({@link #pollingPaused()}, before it parks) or has not polled since the poller last
 * looked, the poller waits on a selector for the sockets and reads them itself, as an event loop does.
 * No path depends on a caller polling: at worst what arrives is read {@value #DEFER_MILLIS} ms later.
 *
 * <p>Writing. Senders write their records to the socket themselves ({@link OutboundLink}); what a full
 * socket does not take waits on its link, and is written by the next poll of either kind (the poller asks
 * the selector for room).
 */
final class IoPoller implements Runnable {
    static final long DEFER_MILLIS = 1;

    private final Selector selector;
    private final Thread thread;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final List<InboundStream> inbound = new CopyOnWriteArrayList<>();
    /** Walked by every poll; a list, as links are added and removed rarely (a set's iterator cost each poll). */
    private final CopyOnWriteArrayList<OutboundLink> outbound = new CopyOnWriteArrayList<>();

    private final ConcurrentLinkedQueue<Object> toRegister = new ConcurrentLinkedQueue<>();
    /** Changed by every caller poll (only changes matter). */
    private volatile long callerPolls;

    private volatile boolean callerPaused;
    private volatile boolean deferring;
    private volatile boolean closed;

    /** Where the poller reports a failed pass (the transport's log, not the program's output). */
    private final java.util.function.Consumer<String> log;

    IoPoller(int worldRank, java.util.function.Consumer<String> log) {
        this.log = log;
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("rewind: tcp: cannot open a selector", e);
        }
        this.thread = new Thread(this, "rewind-tcp-" + worldRank + "-poller");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Reads {@code stream} from now on. */
    void add(InboundStream stream) {
        inbound.add(stream);
        toRegister.add(stream);
        selector.wakeup();
    }

    /** Watches {@code link} from now on: its peer closing it, and room for what waits on it. */
    void add(OutboundLink link) {
        outbound.addIfAbsent(link);
        toRegister.add(link);
        selector.wakeup();
    }

    void remove(OutboundLink link) {
        outbound.remove(link);
    }

    /** The inbound streams being read (for fencing and closing). */
    List<InboundStream> inbound() {
        return inbound;
    }

    /** Something waits on {@code link} for room in its socket: the poller, if it is the one polling, asks for it. */
    void wantsRoom(OutboundLink link) {
        if (!deferring) {
            selector.wakeup();
        }
    }

    /**
     * In a caller's thread (a rank busy-polling in a wait): writes what waits on the outbound links and
     * reads what arrived, without blocking.
     *
     * @return whether anything was read
     */
    boolean poll() {
        callerPolls++;
        if (callerPaused) {
            callerPaused = false;
        }
        flushWaiting();
        return readAll();
    }

    /** The caller stops polling (it is about to park): the poller takes the sockets over at once. */
    void pollingPaused() {
        callerPaused = true;
        if (deferring) {
            LockSupport.unpark(thread);
        }
    }

    private boolean readAll() {
        if (!reading.compareAndSet(false, true)) {
            return false; // another thread is reading them
        }
        try {
            boolean any = false;
            for (InboundStream s : inbound) {
                any |= s.readAvailable();
            }
            return any;
        } finally {
            reading.set(false);
        }
    }

    /** Writes what waits on every outbound link, where no other thread is writing it. */
    void flushWaiting() {
        for (OutboundLink link : outbound) {
            if (link.hasWaiting()) {
                link.flush(false);
            }
        }
    }

    @Override
    public void run() {
        long seen = callerPolls;
        while (!closed) {
            try {
                register();
                long polls = callerPolls;
                if (polls != seen && !callerPaused) {
                    // A caller polls the sockets: stay off them, look again later.
                    seen = polls;
                    deferring = true;
                    if (!callerPaused) {
                        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(DEFER_MILLIS));
                    }
                    deferring = false;
                    continue;
                }
                for (SelectionKey key : selector.keys()) {
                    try {
                        if (key.isValid() && key.attachment() instanceof OutboundLink link) {
                            key.interestOps(
                                    link.hasWaiting()
                                            ? SelectionKey.OP_READ | SelectionKey.OP_WRITE
                                            : SelectionKey.OP_READ);
                        }
                    } catch (CancelledKeyException e) {
                        // its channel was closed by another thread since it was checked: nothing to watch
                    }
                }
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    try {
                        if (key.isValid() && key.attachment() instanceof OutboundLink link && key.isReadable()) {
                            link.onReadable();
                        }
                    } catch (CancelledKeyException e) {
                        // closed meanwhile (a peer gone, a fenced incarnation): nothing to read
                    }
                }
                selector.selectedKeys().clear();
                flushWaiting();
                readAll();
                inbound.removeIf(InboundStream::isClosed);
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
                // Never let the sockets go unread: report, pause a little, go on.
                log.accept("the I/O poller of " + thread.getName() + " failed and goes on: " + e);
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(DEFER_MILLIS));
            }
        }
    }

    private void register() {
        for (Object o = toRegister.poll(); o != null; o = toRegister.poll()) {
            try {
                if (o instanceof InboundStream s && !s.isClosed()) {
                    s.socket().register(selector, SelectionKey.OP_READ, s);
                } else if (o instanceof OutboundLink link && link.socket() != null) {
                    link.socket().register(selector, SelectionKey.OP_READ, link);
                }
            } catch (ClosedChannelException e) {
                // closed before it was registered: nothing to watch
            }
        }
    }

    /** Stops the poller's thread and closes every inbound stream. */
    void close() {
        closed = true;
        selector.wakeup();
        LockSupport.unpark(thread);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (InboundStream s : inbound) {
            s.close();
        }
        try {
            selector.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
