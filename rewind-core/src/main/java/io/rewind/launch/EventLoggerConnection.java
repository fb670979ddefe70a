package io.rewind.launch;

import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A rank process's connection to the job's event logger process. If that process dies, a request
 * waiting for its answer is sent again to the process the launcher starts in its place (whose address
 * arrives through {@link #moveTo}): a record is idempotent, so sending it twice is harmless. Waits at
 * most {@link #WAIT_MILLIS} for an answer or for a new event logger, then fails.
 */
final class EventLoggerConnection implements AutoCloseable {
    static final long WAIT_MILLIS = TimeUnit.SECONDS.toMillis(120);

    private final String name;
    private final JobSecret secret;
    private final Object lock = new Object();
    private Messages.EventLoggerAt address;
    private Messages.EventLoggerAt failed;
    private Link link;
    private Requests requests;
    private boolean closed;

    EventLoggerConnection(String name, JobSecret secret) {
        this.name = name;
        this.secret = secret;
    }

    /** The event logger listens at {@code at} from now on. */
    void moveTo(Messages.EventLoggerAt at) {
        Link old;
        synchronized (lock) {
            if (at.equals(address)) {
                return;
            }
            address = at;
            old = link;
            link = null;
            requests = null;
            lock.notifyAll();
        }
        if (old != null) {
            old.close();
        }
    }

    /** Sends a request and waits for its answer, sending it again to a new event logger if need be. */
    Serializable call(Serializable body) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (true) {
            Requests r = connected(deadline);
            try {
                return r.call(body, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (Requests.LinkClosedException e) {
                // the event logger died: send it again to the next one
            }
        }
    }

    private Requests connected(long deadline) {
        synchronized (lock) {
            while (true) {
                if (closed) {
                    throw new IllegalStateException(name + ": closed");
                }
                if (requests != null) {
                    return requests;
                }
                if (address != null && !address.equals(failed)) {
                    Messages.EventLoggerAt at = address;
                    try {
                        Link opened = Link.connect(new InetSocketAddress(at.host(), at.port()), secret, name);
                        Requests r = new Requests(opened);
                        opened.startReader(
                                m -> {
                                    if (m instanceof Messages.Answer a) {
                                        r.answered(a);
                                    }
                                },
                                why -> {
                                    r.closed(why);
                                    lost(opened, at);
                                });
                        link = opened;
                        requests = r;
                        return r;
                    } catch (IOException e) {
                        failed = at; // wait for the launcher to say where the next one is
                    }
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IllegalStateException(name + ": no event logger to answer within " + WAIT_MILLIS + " ms");
                }
                try {
                    lock.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(name + ": interrupted while waiting for the event logger", e);
                }
            }
        }
    }

    private void lost(Link gone, Messages.EventLoggerAt at) {
        synchronized (lock) {
            if (link == gone) {
                link = null;
                requests = null;
                failed = at;
            }
        }
    }

    @Override
    public void close() {
        Link old;
        synchronized (lock) {
            closed = true;
            old = link;
            link = null;
            requests = null;
            lock.notifyAll();
        }
        if (old != null) {
            old.close();
        }
    }
}
