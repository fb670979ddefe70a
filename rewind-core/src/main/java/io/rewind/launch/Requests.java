package io.rewind.launch;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Requests sent over one {@link Link}, each answered by a {@link Messages.Answer} carrying its id. The
 * link's reader hands answers in ({@link #answered}); when the link closes, every request still
 * waiting fails ({@link #closed}), so nobody waits for an answer that cannot come.
 */
final class Requests {
    /** A request that failed because its link closed before the answer came: it may be sent again elsewhere. */
    static final class LinkClosedException extends IllegalStateException {
        LinkClosedException(String message) {
            super(message);
        }
    }

    private final Link link;
    private final AtomicLong nextId = new AtomicLong();
    private final ConcurrentHashMap<Long, CompletableFuture<Serializable>> waiting = new ConcurrentHashMap<>();
    private volatile String closedBecause;

    Requests(Link link) {
        this.link = link;
    }

    /** Sends one request; the future completes with its answer, or fails with the answer's error. */
    CompletableFuture<Serializable> send(Serializable body) {
        long id = nextId.incrementAndGet();
        CompletableFuture<Serializable> f = new CompletableFuture<>();
        waiting.put(id, f);
        boolean sent = link.send(new Messages.Request(id, body));
        String closed = closedBecause;
        if (closed != null) {
            fail(id, closed);
        } else if (!sent) {
            // The link broke as the request was written: its reader says why soon, but nobody need wait.
            fail(id, link.name() + " closed (the request could not be sent)");
        }
        return f;
    }

    /** Sends one request and waits for its answer, at most {@code timeoutMillis}. */
    Serializable call(Serializable body, long timeoutMillis) {
        CompletableFuture<Serializable> f = send(body);
        try {
            return f.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LinkClosedException closed) {
                throw new LinkClosedException(closed.getMessage());
            }
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            f.cancel(false);
            throw new IllegalStateException(link.name() + ": no answer to "
                    + body.getClass().getSimpleName() + " within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(link.name() + ": interrupted while waiting for an answer", e);
        }
    }

    /** In the link's reader: the answer to one request. */
    void answered(Messages.Answer a) {
        CompletableFuture<Serializable> f = waiting.remove(a.id());
        if (f != null) {
            if (a.error() != null) {
                f.completeExceptionally(new IllegalStateException(a.error()));
            } else {
                f.complete(a.value());
            }
        }
    }

    /** The link closed: every request still waiting fails, and so will every later one. */
    void closed(String why) {
        closedBecause = link.name() + " closed (" + why + ")";
        for (Long id : waiting.keySet()) {
            fail(id, closedBecause);
        }
    }

    private void fail(long id, String why) {
        CompletableFuture<Serializable> f = waiting.remove(id);
        if (f != null) {
            f.completeExceptionally(new LinkClosedException(why));
        }
    }
}
