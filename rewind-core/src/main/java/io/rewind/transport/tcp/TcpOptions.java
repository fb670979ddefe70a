package io.rewind.transport.tcp;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Settings of a {@link TcpTransport}. Every process of a job must use the same {@code maxPayloadBytes}
 * (a receiver refuses a longer record and closes the connection).
 *
 * @param maxPayloadBytes the largest payload of one message; a larger send is refused at the sender
 * @param connectTimeout how long a connection attempt may take
 * @param handshakeTimeout how long either side of a connection waits for the other's handshake message
 * @param stallTimeout how long a sender waits for a connection whose peer reads nothing (back-pressure)
 *     before its send fails
 * @param writeBufferLowBytes a connection that stopped taking frames takes them again below this
 * @param writeBufferHighBytes a connection with this many bytes queued stops taking frames
 * @param ioThreads event loop threads of the transport
 * @param log where the transport's one-line notices go
 * @param socketBufferBytes the send and receive buffer of every data connection's socket, or 0 to
 *     leave them to the kernel's autotuning (see {@link SocketBuffers}: a size the system's maximum does
 *     not allow is not asked for)
 */
public record TcpOptions(
        int maxPayloadBytes,
        Duration connectTimeout,
        Duration handshakeTimeout,
        Duration stallTimeout,
        int writeBufferLowBytes,
        int writeBufferHighBytes,
        int ioThreads,
        Consumer<String> log,
        int socketBufferBytes) {
    /** 256 MiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 256 << 20;

    public TcpOptions {
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(handshakeTimeout, "handshakeTimeout");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        Objects.requireNonNull(log, "log");
        if (maxPayloadBytes < 0
                || maxPayloadBytes > Integer.MAX_VALUE - WireFormat.LENGTH_BYTES - WireFormat.FRAME_OVERHEAD_BYTES) {
            throw new IllegalArgumentException("maxPayloadBytes out of range: " + maxPayloadBytes);
        }
        if (writeBufferLowBytes <= 0 || writeBufferHighBytes < writeBufferLowBytes) {
            throw new IllegalArgumentException(
                    "write buffer marks must be 0 < low <= high: " + writeBufferLowBytes + ", " + writeBufferHighBytes);
        }
        if (socketBufferBytes < 0) {
            throw new IllegalArgumentException(
                    "socketBufferBytes must be 0 (the kernel's) or positive: " + socketBufferBytes);
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads must be at least 1: " + ioThreads);
        }
        requirePositive(connectTimeout, "connectTimeout");
        requirePositive(handshakeTimeout, "handshakeTimeout");
        requirePositive(stallTimeout, "stallTimeout");
    }

    /**
     * 256 MiB messages, 5 s to connect and to answer a handshake, 60 s for a peer that reads nothing,
     * 2-4 MiB write buffer marks, one event loop thread, notices on System.err, 4 MiB socket buffers.
     */
    public static TcpOptions defaults() {
        return new TcpOptions(
                DEFAULT_MAX_PAYLOAD_BYTES,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(60),
                2 << 20,
                4 << 20,
                1,
                System.err::println,
                SocketBuffers.DEFAULT_BYTES);
    }

    public TcpOptions withMaxPayloadBytes(int bytes) {
        return new TcpOptions(
                bytes,
                connectTimeout,
                handshakeTimeout,
                stallTimeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                ioThreads,
                log,
                socketBufferBytes);
    }

    public TcpOptions withHandshakeTimeout(Duration timeout) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                timeout,
                stallTimeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                ioThreads,
                log,
                socketBufferBytes);
    }

    public TcpOptions withStallTimeout(Duration timeout) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                handshakeTimeout,
                timeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                ioThreads,
                log,
                socketBufferBytes);
    }

    public TcpOptions withWriteBufferMarks(int lowBytes, int highBytes) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                handshakeTimeout,
                stallTimeout,
                lowBytes,
                highBytes,
                ioThreads,
                log,
                socketBufferBytes);
    }

    public TcpOptions withIoThreads(int threads) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                handshakeTimeout,
                stallTimeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                threads,
                log,
                socketBufferBytes);
    }

    public TcpOptions withLog(Consumer<String> sink) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                handshakeTimeout,
                stallTimeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                ioThreads,
                sink,
                socketBufferBytes);
    }

    public TcpOptions withSocketBufferBytes(int bytes) {
        return new TcpOptions(
                maxPayloadBytes,
                connectTimeout,
                handshakeTimeout,
                stallTimeout,
                writeBufferLowBytes,
                writeBufferHighBytes,
                ioThreads,
                log,
                bytes);
    }

    private static void requirePositive(Duration d, String name) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + d);
        }
    }
}
