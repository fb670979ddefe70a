package io.rewind.transport.tcp;

import io.netty.channel.Channel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * Netty's NIO channels, opened so that the JDK socket under an authenticated connection can be taken
 * over: Netty connects, accepts and runs the {@link Handshake}; then the connection leaves Netty's event
 * loop ({@link Channel#deregister()}) and its socket is read and written by the {@link IoPoller} and by
 * the rank's own threads (see {@link TcpTransport}).
 */
final class DataChannels {
    private DataChannels() {}

    /** A connection whose JDK socket can be taken over once it left its event loop. */
    static final class Socket extends NioSocketChannel {
        Socket() {}

        Socket(Channel parent, SocketChannel socket) {
            super(parent, socket);
        }

        /** The JDK socket (non-blocking); only its new owner may use it once the channel is deregistered. */
        SocketChannel socket() {
            return javaChannel();
        }
    }

    /** A listening socket whose accepted connections are {@link Socket}s. */
    static final class Server extends NioServerSocketChannel {
        Server() {}

        @Override
        protected int doReadMessages(List<Object> buf) throws Exception {
            SocketChannel ch = javaChannel().accept();
            if (ch == null) {
                return 0;
            }
            try {
                buf.add(new Socket(this, ch));
                return 1;
            } catch (Throwable t) {
                ch.close();
                throw t;
            }
        }
    }
}
