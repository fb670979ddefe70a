package io.rewind.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.RewindException;
import io.rewind.transport.JobSecret;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one connection of a transport to one incarnation of a destination rank. Written by the sending
 * threads and only by them (writes from one thread keep their order); it never carries anything back
 * once the handshake is done, so bytes that arrive on it are a protocol violation. Opened lazily by the
 * first send, it is ready once the {@link ConnectingHandshake} has verified the accepting side.
 *
 * <p>Back-pressure: a connection with more than the high water mark queued stops taking records, and a
 * sender waits until it drains below the low mark, the connection closes, or the link is closed because
 * the peer was replaced or is gone. The wait is bounded by the stall timeout: the receiving side always
 * drains its sockets (its sink only enqueues), so a peer that takes nothing for that long is stuck, and
 * the send fails rather than wait for ever.
 */
final class OutboundLink {
    private final PeerIdentity target;
    private final InetSocketAddress address;
    private final Notices notices;
    private final Channel channel;
    /** Completed on the event loop: true once authenticated, false if it never will be. */
    private final CompletableFuture<Boolean> ready = new CompletableFuture<>();
    /** Senders waiting for the connection to drain wait on this. */
    private final Object drained = new Object();

    private volatile boolean closing;

    private OutboundLink(
            Bootstrap template,
            PeerIdentity target,
            InetSocketAddress address,
            JobSecret secret,
            PeerIdentity self,
            Duration handshakeTimeout,
            Notices notices) {
        this.target = target;
        this.address = address;
        this.notices = notices;
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
                                ctx -> ready.complete(true),
                                notices));
                // Writes from the sending threads arrive as separate tasks: flush them together.
                p.addLast("flushes", new FlushConsolidationHandler(256, true));
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
            Notices notices) {
        return new OutboundLink(template, target, address, secret, self, handshakeTimeout, notices);
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Whether the link is connecting or connected: false once it closed or could not connect. */
    boolean isUsable() {
        return !closing && (!ready.isDone() || (ready.join() && channel.isActive()));
    }

    /** Whether the link never got connected (refused, unreachable, handshake failed): nothing will go through. */
    boolean neverConnected() {
        return ready.isDone() && !ready.join();
    }

    /**
     * Writes one record (its reference is taken over) once the link is ready and takes more.
     *
     * @return false if the record was dropped because the link failed or closed
     * @throws RewindException if the peer took nothing within the stall timeout
     * @throws IllegalStateException if called on the transport's own event loop, which must never wait
     */
    boolean write(ByteBuf record, Duration readyTimeout, Duration stallTimeout) {
        boolean written = false;
        try {
            if (channel.eventLoop().inEventLoop()) {
                throw new IllegalStateException("a TCP transport's I/O thread cannot send (it would wait on itself)");
            }
            if (!awaitReady(readyTimeout)) {
                return false;
            }
            awaitDrained(stallTimeout);
            if (closing || !channel.isActive()) {
                return false;
            }
            channel.writeAndFlush(record, channel.voidPromise());
            written = true;
            return true;
        } finally {
            if (!written) {
                ReferenceCountUtil.safeRelease(record);
            }
        }
    }

    /** Closes the connection; senders waiting on it give up and drop what they send. */
    void close() {
        closing = true;
        ready.complete(false);
        channel.close();
        wakeSenders();
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

    private void awaitDrained(Duration stallTimeout) {
        if (channel.isWritable()) {
            return;
        }
        long deadline = System.nanoTime() + stallTimeout.toNanos();
        boolean interrupted = false;
        try {
            synchronized (drained) {
                while (!channel.isWritable() && channel.isActive() && !closing) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new RewindException(
                                ErrorClass.OTHER,
                                "rewind: tcp: " + describe() + " has taken nothing for " + stallTimeout.toMillis()
                                        + " ms (its connection is full); the send failed");
                    }
                    try {
                        TimeUnit.NANOSECONDS.timedWait(drained, left);
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void wakeSenders() {
        synchronized (drained) {
            drained.notifyAll();
        }
    }

    private String describe() {
        return "rank " + target.worldRank() + " (incarnation " + target.incarnation() + ") at " + address;
    }

    /** After the handshake: wakes senders when the connection drains or closes; refuses inbound bytes. */
    private final class Watcher extends ChannelInboundHandlerAdapter {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            wakeSenders();
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ready.complete(false); // closed before the handshake finished: it never will
            wakeSenders();
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
