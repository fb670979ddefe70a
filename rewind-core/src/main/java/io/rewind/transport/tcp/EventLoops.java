package io.rewind.transport.tcp;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loop group of one transport: Netty's NIO loops, which connect, accept and run the
 * handshakes; the authenticated connections then leave them (see {@link DataChannels}). Threads are
 * daemons named {@code rewind-tcp-<rank>-<n>}, so a thread dump tells which rank's I/O they serve and
 * they never keep a JVM alive.
 */
record EventLoops(EventLoopGroup group) {

    static EventLoops create(int worldRank, int threads) {
        return new EventLoops(new NioEventLoopGroup(threads, namedDaemons("rewind-tcp-" + worldRank + "-")));
    }

    static ThreadFactory namedDaemons(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return r -> {
            // Netty's FastThreadLocal is quicker on its own thread class.
            Thread t = new FastThreadLocalThread(r, prefix + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
