package io.rewind.transport;

import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.engine.Transport;
import io.rewind.transport.shm.ShmTransport;
import io.rewind.transport.tcp.TcpTransport;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Consumer;

/**
 * The transport of a rank process: shared memory ({@link ShmTransport}) to the ranks whose processes
 * share its folder of memory files (its host), TCP ({@link TcpTransport}) to the others. Frames and
 * control messages to one rank always take one path, so the order of each channel is kept. The rank
 * itself is reached through shared memory when it is on (a private copy, as over TCP). Without a shared-
 * memory transport ({@code shm} null) every rank is reached over TCP, as before.
 *
 * <p>A spinning rank polls the rings at every call of {@link #poll} and the sockets at every eighth: a
 * poll of the sockets is a system call per connection, which would cost the rings most of their
 * latency, while the rings cost a few reads of shared memory.
 */
public final class RoutedTransport implements Transport {
    private static final int TCP_POLL_EVERY = 8;

    private final int worldRank;
    private final TcpTransport tcp;
    private final ShmTransport shm;
    private final Consumer<String> log;
    /** 1 for the ranks reached through shared memory. */
    private final AtomicIntegerArray local;

    private int polls;

    /**
     * @param shm the shared-memory transport of the same rank incarnation, or null for TCP only
     * @param log where a peer that cannot be reached through shared memory is reported
     */
    public RoutedTransport(int worldRank, int worldSize, TcpTransport tcp, ShmTransport shm, Consumer<String> log) {
        this.worldRank = worldRank;
        this.tcp = Objects.requireNonNull(tcp, "tcp");
        this.shm = shm;
        this.log = Objects.requireNonNull(log, "log");
        this.local = new AtomicIntegerArray(worldSize);
    }

    /** Where the TCP transport listens. */
    public InetSocketAddress localAddress() {
        return tcp.localAddress();
    }

    /** The shared-memory domain of this rank (its folder's id), or null if it has no shared memory. */
    public String domain() {
        return shm == null ? null : shm.domain();
    }

    /**
     * Incarnation {@code incarnation} of {@code rank} listens at {@code address}, and shares memory with
     * the ranks of {@code domain} (null: none). A peer of this rank's domain is reached through shared
     * memory from now on, any other over TCP; the TCP transport hears of every peer either way (it fences
     * older incarnations).
     */
    public void peer(int rank, int incarnation, InetSocketAddress address, String domain) {
        tcp.peer(rank, incarnation, address);
        if (rank == worldRank || shm == null) {
            return;
        }
        if (domain != null && domain.equals(shm.domain())) {
            try {
                shm.peer(rank, incarnation);
                local.set(rank, 1);
                return;
            } catch (RuntimeException e) {
                log.accept("rewind: shm: rank " + rank + " (incarnation " + incarnation + ") is reached over TCP: "
                        + e.getMessage());
            }
        }
        local.set(rank, 0);
        shm.peerGone(rank, incarnation); // an earlier incarnation on this host, if any, is reached no more
    }

    /** Incarnation {@code incarnation} of {@code rank} is dead: frames to it are dropped until it is given again. */
    public void peerGone(int rank, int incarnation) {
        tcp.peerGone(rank, incarnation);
        if (shm != null) {
            shm.peerGone(rank, incarnation);
        }
    }

    private boolean viaShm(int rank) {
        return shm != null && (rank == worldRank || local.get(rank) != 0);
    }

    @Override
    public void send(int destinationWorldRank, Frame frame) {
        if (viaShm(destinationWorldRank)) {
            shm.send(destinationWorldRank, frame);
        } else {
            tcp.send(destinationWorldRank, frame);
        }
    }

    @Override
    public void sendControl(int destinationWorldRank, ControlMessage message) {
        if (viaShm(destinationWorldRank)) {
            shm.sendControl(destinationWorldRank, message);
        } else {
            tcp.sendControl(destinationWorldRank, message);
        }
    }

    @Override
    public void attach(int worldRank, FrameSink sink) {
        if (shm != null) {
            shm.attach(worldRank, sink);
        }
        tcp.attach(worldRank, sink);
    }

    @Override
    public boolean withdraw(int destinationWorldRank, Frame frame) {
        return false;
    }

    @Override
    public boolean poll() {
        if (shm == null) {
            return tcp.poll();
        }
        boolean any = shm.poll();
        if (++polls % TCP_POLL_EVERY == 0) {
            any |= tcp.poll();
        }
        return any;
    }

    @Override
    public boolean stagesPayload(int destinationWorldRank) {
        return !viaShm(destinationWorldRank);
    }

    @Override
    public void flushOutbound() {
        tcp.flushOutbound();
    }

    @Override
    public void pollingPaused() {
        if (shm != null) {
            shm.pollingPaused();
        }
        tcp.pollingPaused();
    }

    @Override
    public boolean sharesMemory() {
        return false;
    }

    @Override
    public String name() {
        return shm == null ? "tcp" : "shm+tcp";
    }

    @Override
    public void close() {
        if (shm != null) {
            shm.close();
        }
        tcp.close();
    }

    @Override
    public String toString() {
        return "RoutedTransport[" + tcp + (shm == null ? "" : ", " + shm) + "]";
    }
}
