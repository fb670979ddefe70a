package io.rewind.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.util.ReferenceCountUtil;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.RewindException;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one connection of a transport to one incarnation of a destination rank. Written by the sending
 * threads and only by them (records are written whole and in the order their senders took the link's
 * lock); it never carries anything back once the handshake is done, so bytes that arrive on it are a
 * protocol violation. Opened lazily by the first send, it is ready once the {@link ConnectingHandshake}
 * has verified the accepting side and the connection has left Netty's event loop: from then on the
 * sending thread writes to the socket itself, with no hand-off to another thread.
 *
 * <p>Writing. A sender takes the link's lock, which is only ever held for non-blocking writes, and writes
 * its record to the socket. What the socket does not take (it is full: the peer reads slower than this
 * side writes) waits on the link, in order, and later records wait behind it; it is written by the next
 * poll ({@link IoPoller}): the sender's own while it waits, the rank's while it busy-polls, or the
 * poller's thread, which asks the selector for room.
 *
 * <p>Back-pressure: while more than the high water mark waits on the link, a sender waits (holding no
 * lock, and reading its own sockets meanwhile) until it drains below the low mark, the connection closes,
 * or the link is closed because the peer was replaced or is gone. The wait is bounded by the stall
 * timeout: the receiving side always drains its sockets (its sink only enqueues), so a peer that takes
 * nothing for that long is stuck, and the send fails rather than wait for ever.
 */
final class OutboundLink {
    private static final long WAIT_MIN_NANOS = 20_000;
    private static final long WAIT_MAX_NANOS = 1_000_000;

    private final PeerIdentity target;
    private final InetSocketAddress address;
    private final Notices notices;
    private final IoPoller poller;
    private final long lowBytes;
    private final long highBytes;
    private final Channel channel;
    /** Completed once the connection is authenticated and taken over (true), or never will be (false). */
    private final CompletableFuture<Boolean> ready = new CompletableFuture<>();
    /** Held only for non-blocking writes to the socket, never while waiting. */
    private final ReentrantLock writing = new ReentrantLock();
    /** Records, or their unwritten ends, that the socket did not take yet; guarded by {@link #writing}. */
    private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
    /** Bytes in {@link #waiting}; written under the lock. */
    private volatile long waitingBytes;
    /** The JDK socket, once the connection left its event loop. */
    private volatile SocketChannel socket;

    private volatile boolean closing;

    private OutboundLink(
            Bootstrap template,
            PeerIdentity target,
            InetSocketAddress address,
            JobSecret secret,
            PeerIdentity self,
            Duration handshakeTimeout,
            Notices notices,
            IoPoller poller,
            int lowBytes,
            int highBytes) {
        this.target = target;
        this.address = address;
        this.notices = notices;
        this.poller = poller;
        this.lowBytes = lowBytes;
        this.highBytes = highBytes;
        Bootstrap bootstrap = template.clone().handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ChannelPipeline p = ch.pipeline();
                p.addLast(
                        "handshake",
                        new ConnectingHandshake(
                                secret,
                                self.worldRank(),
                                self.incarnation(),
                                handshakeTimeout,
                                ctx -> takeOver(ctx.channel()),
                                notices));
                p.addLast("watcher", new Watcher());
            }
        });
        this.channel = bootstrap
                .connect(address)
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        if (!closing) {
                            notices.note("cannot connect to " + describe() + ": " + f.cause()
                                    + "; frames to it are dropped until it is given again");
                        }
                        ready.complete(false); // after the notice: the sender that waits logs nothing itself
                    }
                })
                .channel();
    }

    /** Starts connecting to incarnation {@code target} at {@code address}, as {@code self}. */
    static OutboundLink open(
            Bootstrap template,
            PeerIdentity target,
            InetSocketAddress address,
            JobSecret secret,
            PeerIdentity self,
            Duration handshakeTimeout,
            Notices notices,
            IoPoller poller,
            int lowBytes,
            int highBytes) {
        return new OutboundLink(
                template, target, address, secret, self, handshakeTimeout, notices, poller, lowBytes, highBytes);
    }

    /**
     * On the event loop, once the accepting side proved the secret: the connection leaves the loop (no
     * more reads or writes by Netty), and its socket is this link's.
     */
    private void takeOver(Channel ch) {
        ch.config().setAutoRead(false);
        ch.deregister().addListener(f -> {
            if (!f.isSuccess() || closing) {
                ch.close();
                ready.complete(false);
                return;
            }
            socket = ((DataChannels.Socket) ch).socket();
            poller.add(this);
            ready.complete(true);
        });
    }

    /** Where records are encoded: pooled direct memory (see {@link #RECORDS}). */
    ByteBufAllocator alloc() {
        return RECORDS;
    }

    /**
     * The records of every link of the process: one arena of 16 MiB chunks (pages of 8 KiB, order 11),
     * so that records up to 16 MiB, long messages included, reuse pooled memory instead of mapping
     * (and faulting in) fresh memory at every send, as the default 4 MiB chunks would above 4 MiB.
     */
    private static final ByteBufAllocator RECORDS = new PooledByteBufAllocator(true, 0, 1, 8192, 11, 256, 64, true);

    SocketChannel socket() {
        return socket;
    }

    /** Whether the link is connecting or connected: false once it closed or could not connect. */
    boolean isUsable() {
        if (closing) {
            return false;
        }
        if (!ready.isDone()) {
            return true;
        }
        SocketChannel s = socket;
        return ready.join() && s != null && s.isOpen();
    }

    /** Whether the link never got connected (refused, unreachable, handshake failed): nothing will go through. */
    boolean neverConnected() {
        return ready.isDone() && !ready.join();
    }

    /**
     * Writes one record (its reference is taken over) once the link is ready: to the socket at once if
     * nothing waits before it, else behind what waits.
     *
     * @return false if the record was dropped because the link failed or closed
     * @throws RewindException if the peer took nothing within the stall timeout
     * @throws IllegalStateException if called on the transport's event loop, which must never wait
     */
    boolean write(ByteBuf record, Duration readyTimeout, Duration stallTimeout) {
        boolean taken = false;
        try {
            if (channel.eventLoop().inEventLoop()) {
                throw new IllegalStateException("a TCP transport's I/O thread cannot send (it would wait on itself)");
            }
            if (!awaitReady(readyTimeout)) {
                return false;
            }
            if (waitingBytes > highBytes) {
                awaitDrained(stallTimeout);
            }
            writing.lock();
            try {
                if (closing) {
                    releaseWaiting();
                    return false;
                }
                taken = true;
                if (waiting.isEmpty()) {
                    writeSome(record);
                }
                if (record.isReadable()) {
                    waiting.addLast(record);
                    waitingBytes += record.readableBytes();
                    poller.wantsRoom(this);
                } else {
                    record.release();
                }
            } catch (IOException e) {
                broken(e);
                return false;
            } finally {
                writing.unlock();
            }
            return true;
        } finally {
            if (!taken) {
                ReferenceCountUtil.safeRelease(record);
            }
        }
    }

    /** Whether something waits for room in the socket. */
    boolean hasWaiting() {
        return waitingBytes > 0;
    }

    /**
     * Writes what waits, as far as the socket takes it, without blocking.
     *
     * @param mustLock whether to wait for the lock (a sender waiting for room) or give up if another
     *     thread holds it (a poll: the holder writes)
     */
    void flush(boolean mustLock) {
        if (mustLock) {
            writing.lock();
        } else if (!writing.tryLock()) {
            return;
        }
        try {
            for (ByteBuf b = waiting.peekFirst(); b != null && !closing; b = waiting.peekFirst()) {
                int before = b.readableBytes();
                writeSome(b);
                waitingBytes -= before - b.readableBytes();
                if (b.isReadable()) {
                    return; // the socket is full
                }
                waiting.pollFirst().release();
            }
        } catch (IOException e) {
            broken(e);
        } finally {
            if (closing) {
                releaseWaiting();
            }
            writing.unlock();
        }
    }

    /**
     * Writes as much of {@code b} as the socket takes now: a record in pieces (a header and the sender's
     * log memory) with one gathering write, never merged into a copy. Lock held.
     */
    private void writeSome(ByteBuf b) throws IOException {
        SocketChannel s = socket;
        while (b.isReadable()) {
            long n = b.nioBufferCount() == 1
                    ? s.write(b.nioBuffer(b.readerIndex(), b.readableBytes()))
                    : s.write(b.nioBuffers(b.readerIndex(), b.readableBytes()));
            if (n <= 0) {
                return;
            }
            b.skipBytes((int) n);
        }
    }

    /** In the poller: the socket has something to read, which only an end or a violation can be. */
    void onReadable() {
        SocketChannel s = socket;
        if (s == null) {
            return;
        }
        try {
            int n = s.read(ByteBuffer.allocate(64));
            if (n < 0) {
                close(); // the peer closed the connection: it ended or was replaced
            } else if (n > 0) {
                notices.refused("bytes", address, "an outbound connection carries nothing back");
                close();
            }
        } catch (IOException e) {
            broken(e);
        }
    }

    private void broken(IOException e) {
        if (!closing) {
            notices.note("the connection to " + describe() + " failed: " + e);
        }
        close();
    }

    /** Closes the connection; senders waiting on it give up and drop what they send. */
    void close() {
        closing = true;
        ready.complete(false);
        poller.remove(this);
        SocketChannel s = socket;
        if (s != null) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        } else {
            channel.close();
        }
        if (writing.tryLock()) {
            try {
                releaseWaiting();
            } finally {
                writing.unlock();
            }
        } // else: the holder finds the link closing and stops; the next writer or flush releases what waits
    }

    private void releaseWaiting() {
        for (ByteBuf b = waiting.pollFirst(); b != null; b = waiting.pollFirst()) {
            b.release();
        }
        waitingBytes = 0;
    }

    private boolean awaitReady(Duration timeout) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return ready.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true; // a send is not interruptible; the wait is bounded anyway
                } catch (TimeoutException e) {
                    notices.note("no connection to " + describe() + " within " + timeout.toMillis() + " ms");
                    close();
                    return false;
                } catch (ExecutionException e) {
                    return false;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Waits, writing and reading meanwhile, until what waits on the link is below the low mark. */
    private void awaitDrained(Duration stallTimeout) {
        long deadline = System.nanoTime() + stallTimeout.toNanos();
        long pause = WAIT_MIN_NANOS;
        while (waitingBytes > lowBytes && !closing) {
            long before = waitingBytes;
            flush(true);
            if (waitingBytes <= lowBytes || closing) {
                break;
            }
            // Reading meanwhile: the peer may be waiting for room on its own link to this rank.
            boolean read = poller.poll();
            if (waitingBytes < before || read) {
                deadline = System.nanoTime() + stallTimeout.toNanos();
                pause = WAIT_MIN_NANOS;
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new RewindException(
                        ErrorClass.OTHER,
                        "rewind: tcp: " + describe() + " has taken nothing for " + stallTimeout.toMillis()
                                + " ms (its connection is full); the send failed");
            }
            LockSupport.parkNanos(this, pause);
            pause = Math.min(2 * pause, WAIT_MAX_NANOS);
        }
    }

    private String describe() {
        return "rank " + target.worldRank() + " (incarnation " + target.incarnation() + ") at " + address;
    }

    /** During the handshake: refuses inbound bytes beyond it, and reports a connection that closes. */
    private final class Watcher extends ChannelInboundHandlerAdapter {
        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.complete(false); // closed before the handshake finished: it never will
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
            if (ctx.channel().isActive()) {
                notices.refused("bytes", ctx.channel().remoteAddress(), "an outbound connection carries nothing back");
                ctx.close();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!closing && !(cause instanceof ClosedChannelException)) {
                notices.note("the connection to " + describe() + " failed: " + cause);
            }
            ctx.close();
        }
    }
}
