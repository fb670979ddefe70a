package io.rewind.transport.tcp;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event loop group of one transport and the channel classes that go with it: epoll where Netty's
 * native library loads (Linux), NIO elsewhere. Threads are daemons named {@code rewind-tcp-<rank>-<n>},
 * so a thread dump tells which rank's I/O they serve and they never keep a JVM alive.
 */
record EventLoops(
        EventLoopGroup group,
        Class<? extends ServerChannel> serverChannel,
        Class<? extends SocketChannel> socketChannel) {

    static EventLoops create(int worldRank, int threads) {
        ThreadFactory factory = namedDaemons("rewind-tcp-" + worldRank + "-");
        if (Epoll.isAvailable()) {
            return new EventLoops(
                    new EpollEventLoopGroup(threads, factory),
                    EpollServerSocketChannel.class,
                    EpollSocketChannel.class);
        }
        return new EventLoops(
                new NioEventLoopGroup(threads, factory), NioServerSocketChannel.class, NioSocketChannel.class);
    }

    /** Whether the native transport is in use. */
    boolean isEpoll() {
        return group instanceof EpollEventLoopGroup;
    }

    private static ThreadFactory namedDaemons(String prefix) {
        AtomicInteger next = new AtomicInteger();
        return r -> {
            // Netty's FastThreadLocal is quicker on its own thread class.
            Thread t = new FastThreadLocalThread(r, prefix + next.getAndIncrement());
            t.setDaemon(true);
            return t;
        };
    }
}
