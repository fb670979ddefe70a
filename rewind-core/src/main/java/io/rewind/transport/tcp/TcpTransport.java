package io.rewind.transport.tcp;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.AttributeKey;
import io.rewind.engine.ControlCodec;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.ErrorClass;
import io.rewind.engine.Frame;
import io.rewind.engine.FrameSink;
import io.rewind.engine.RewindException;
import io.rewind.engine.StagedPayload;
import io.rewind.engine.Transport;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The transport of one rank incarnation in a process of its own: frames and control messages travel
 * over TCP to the other ranks' processes (Netty connects and authenticates; the rank's threads and a
 * poller thread then read and write the sockets directly).
 *
 * <p>Connections. Each transport listens on one socket, bound by {@link #open}. To send, it connects to
 * the destination's current address (given by {@link #peer}) the first time it needs to, one connection
 * per destination: a connection carries records one way only, from the side that connected, so every
 * pair of ranks talking both ways has two, each written by its sender's threads and read by its
 * receiver's event loop. Every connection starts with the mutual {@link Handshake}: nothing of a peer
 * that does not prove the job's secret is ever read as a record.
 *
 * <p>Wire format. After the handshake, length-prefixed records ({@link WireFormat}): {@code int length}
 * of what follows, {@code byte type}; a FRAME then has a 52-byte header (context, source, sourceWorld,
 * destinationWorld, tag as ints, sequence as a long, incarnation, patternId, iterationId, line as ints,
 * payload length as a long) and the payload; a CONTROL has the {@link ControlCodec}'s bytes. A record is
 * checked before anything is allocated for it, and one that breaks the format closes its connection,
 * with one line on the log, and nothing else.
 *
 * <p>Sending. {@link #send} copies the payload into a record at once ({@link #sharesMemory()} is false,
 * so the engine completes the send when this returns; under a logging protocol the log copy rides on
 * this copy when the frame carries a tee) and writes the record to the socket itself, in the sending
 * thread: no other thread is woken on the common path. What a full socket does not take waits on the
 * connection and is written by the next poll. A send may wait: for the first connection to a
 * destination, and while the connection holds more than its write buffer's high water mark, until it
 * drains, closes, or the peer is replaced or gone; never longer than the options' timeouts, and never
 * holding a lock another thread needs. A frame to itself goes straight to the local sink as a private
 * copy. A frame to a rank with no known live incarnation, or whose connection could not be made or
 * closed while it waited, is dropped, as a crashed process drops its inbound traffic.
 *
 * <p>Receiving. The inbound connections are read all the time, by whoever is there: the rank's thread
 * while it busy-polls in a wait ({@link #poll}), so that what arrives for a spinning rank wakes no other
 * thread, and the poller thread otherwise ({@link IoPoller}). Each frame, a private copy, goes to the
 * sink, which only enqueues (or copies into a posted receive): a receiver never stops reading, so
 * senders waiting for room cannot deadlock. What arrives before {@link #attach} is queued and handed to
 * the sink, in order, when it is attached. Fencing: the transport keeps the newest incarnation it has
 * heard of for each rank (from a handshake, a record or {@link #peer}) and drops what older ones send,
 * logged once per connection.
 */
public final class TcpTransport implements Transport {
    private static final AttributeKey<PeerIdentity> PEER = AttributeKey.valueOf("rewind.tcp.peer");

    private final int worldRank;
    private final int incarnation;
    private final int worldSize;
    private final JobSecret secret;
    private final ControlCodec codec;
    private final TcpOptions options;
    private final Notices notices;
    private final EventLoops loops;
    private final InboundDispatcher inbound;
    private final Destination[] destinations;
    /** Accepted connections until they are authenticated and taken over by the poller. */
    private final Set<Channel> accepted = ConcurrentHashMap.newKeySet();

    private final IoPoller poller;
    private final Bootstrap connector;
    private final Channel listener;
    /** How long a sender waits for a new connection: connected and authenticated, with a margin. */
    private final Duration readyTimeout;

    private final AtomicBoolean closed = new AtomicBoolean();

    private TcpTransport(
            int worldRank,
            int incarnation,
            int worldSize,
            InetSocketAddress bind,
            JobSecret secret,
            ControlCodec codec,
            TcpOptions options) {
        this.worldRank = worldRank;
        this.incarnation = incarnation;
        this.worldSize = worldSize;
        this.secret = secret;
        this.codec = codec;
        this.options = options;
        this.notices = new Notices(options.log());
        this.inbound = new InboundDispatcher(worldSize);
        this.destinations = new Destination[worldSize];
        for (int r = 0; r < worldSize; r++) {
            destinations[r] = new Destination(r);
        }
        this.readyTimeout =
                options.connectTimeout().plus(options.handshakeTimeout()).plusSeconds(1);
        this.loops = EventLoops.create(worldRank, options.ioThreads());
        this.poller = new IoPoller(worldRank, options.log());
        Bootstrap connecting = new Bootstrap()
                .group(loops.group())
                .channelFactory(DataChannels.Socket::new)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(
                        ChannelOption.CONNECT_TIMEOUT_MILLIS,
                        Math.toIntExact(options.connectTimeout().toMillis()));
        ServerBootstrap listening = new ServerBootstrap()
                .group(loops.group())
                .channelFactory(DataChannels.Server::new)
                .childOption(ChannelOption.TCP_NODELAY, true);
        int socketBuffer = SocketBuffers.sizeFor(options.socketBufferBytes());
        if (socketBuffer > 0) {
            // Data flows from the connecting side (an outbound link) to the accepting side (an inbound
            // stream). Both are set before the connection is made: the receive window's scale is agreed
            // in the handshake, so the listening socket carries it for the sockets it accepts.
            connecting.option(ChannelOption.SO_SNDBUF, socketBuffer);
            listening.option(ChannelOption.SO_RCVBUF, socketBuffer);
        }
        this.connector = connecting;
        try {
            this.listener = listening
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            accepted.add(ch);
                            ch.closeFuture().addListener(f -> accepted.remove(ch));
                            ch.pipeline()
                                    .addLast(
                                            "handshake",
                                            new AcceptingHandshake(
                                                    secret,
                                                    worldSize,
                                                    options.handshakeTimeout(),
                                                    TcpTransport.this::authenticated,
                                                    notices));
                        }
                    })
                    .bind(bind)
                    .syncUninterruptibly()
                    .channel();
            poller.start();
        } catch (Exception e) { // Netty rethrows a failed bind's IOException as it is, unchecked
            loops.group().shutdownGracefully(0, 1, TimeUnit.SECONDS);
            poller.close();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("rewind: tcp: cannot listen on " + bind + ": " + io.getMessage(), io);
            }
            throw e;
        }
    }

    /**
     * Binds a listening socket for rank {@code worldRank} of a job of {@code worldSize} ranks,
     * incarnation {@code incarnation}, with the default {@link TcpOptions}.
     *
     * @throws UncheckedIOException if the address cannot be bound
     */
    public static TcpTransport open(
            int worldRank,
            int incarnation,
            int worldSize,
            InetSocketAddress bind,
            JobSecret secret,
            ControlCodec codec) {
        return open(worldRank, incarnation, worldSize, bind, secret, codec, TcpOptions.defaults());
    }

    /** As {@link #open(int, int, int, InetSocketAddress, JobSecret, ControlCodec)}, with these options. */
    public static TcpTransport open(
            int worldRank,
            int incarnation,
            int worldSize,
            InetSocketAddress bind,
            JobSecret secret,
            ControlCodec codec,
            TcpOptions options) {
        if (worldSize < 1 || worldRank < 0 || worldRank >= worldSize) {
            throw new IllegalArgumentException("rank " + worldRank + " of a job of " + worldSize + " ranks");
        }
        if (incarnation < 0) {
            throw new IllegalArgumentException("negative incarnation " + incarnation);
        }
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(codec, "codec");
        Objects.requireNonNull(options, "options");
        return new TcpTransport(worldRank, incarnation, worldSize, bind, secret, codec, options);
    }

    /** The bound address (with the port the OS chose when the bind port was 0). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) listener.localAddress();
    }

    /**
     * Incarnation {@code incarnation} of rank {@code worldRank} listens at {@code address} now: frames to
     * that rank go there from now on. The connection to an older incarnation is closed, and what was
     * queued on it is dropped; so are the connections from older incarnations, which are fenced. News of
     * an incarnation older than one already heard of, and news of this rank itself, are ignored.
     */
    public void peer(int worldRank, int incarnation, InetSocketAddress address) {
        checkRank(worldRank);
        Objects.requireNonNull(address, "address");
        if (incarnation < 0) {
            throw new IllegalArgumentException("negative incarnation " + incarnation);
        }
        if (worldRank == this.worldRank || !inbound.admit(worldRank, incarnation)) {
            return;
        }
        close(destinations[worldRank].give(incarnation, address));
        for (Channel ch : accepted) {
            PeerIdentity from = ch.attr(PEER).get();
            if (from != null && from.worldRank() == worldRank && from.incarnation() < incarnation) {
                ch.close();
            }
        }
        for (InboundStream s : poller.inbound()) {
            PeerIdentity from = s.peer();
            if (from.worldRank() == worldRank && from.incarnation() < incarnation) {
                s.close();
            }
        }
    }

    /**
     * Incarnation {@code incarnation} of rank {@code worldRank} is dead: frames sent to the rank are
     * dropped ({@link Frame#releaseSender()}) until a later {@link #peer} call, and its connection is
     * closed. Ignored if a later incarnation is known already. What it still sends is not fenced by this
     * (its successor's handshake or {@link #peer} does that).
     */
    public void peerGone(int worldRank, int incarnation) {
        checkRank(worldRank);
        if (worldRank != this.worldRank) {
            close(destinations[worldRank].gone(incarnation));
        }
    }

    /**
     * Copies the frame into a record and writes it to the destination's connection, connecting first
     * if there is none; see the class comment for when it waits and when the frame is dropped.
     *
     * @throws RewindException ({@link ErrorClass#COUNT}) if the payload is larger than the options'
     *     {@code maxPayloadBytes}; ({@link ErrorClass#OTHER}) if the destination took nothing for the
     *     stall timeout
     * @throws IllegalArgumentException for a rank outside the job or a frame with a negative field
     */
    @Override
    public void send(int destinationWorldRank, Frame frame) {
        StagedPayload staged = frame.takeStaged(); // this transport's to release from here on
        boolean inRecord = false;
        try {
            inRecord = send(destinationWorldRank, frame, staged);
        } finally {
            if (staged != null && !inRecord) {
                staged.release();
            }
        }
    }

    /**
     * As {@link #send(int, Frame)}.
     *
     * @return whether {@code staged} went into a record, which releases it
     */
    private boolean send(int destinationWorldRank, Frame frame, StagedPayload staged) {
        checkRank(destinationWorldRank);
        if (closed.get()) {
            frame.releaseSender();
            return false;
        }
        if (destinationWorldRank == worldRank) {
            inbound.frame(frame.receivedCopy()); // acknowledged like any other if synchronous
            return false;
        }
        if (frame.lengthBytes() > options.maxPayloadBytes()) {
            throw new RewindException(
                    ErrorClass.COUNT,
                    "rewind: tcp: a message of " + frame.lengthBytes() + " bytes is larger than the "
                            + options.maxPayloadBytes() + " bytes the TCP transport carries (maxPayloadBytes)");
        }
        String invalid = WireFormat.invalid(frame);
        if (invalid != null) {
            throw new IllegalArgumentException("rewind: tcp: cannot send " + invalid);
        }
        OutboundLink link = destinations[destinationWorldRank].link(this::connect);
        if (link == null) {
            frame.releaseSender(); // no live incarnation: dropped, as by a crashed process
            return false;
        }
        ByteBuf record = WireFormat.encodeFrame(link.alloc(), frame, options.maxPayloadBytes(), staged);
        if (!link.write(record, readyTimeout, options.stallTimeout())) {
            frame.releaseSender();
        }
        return true;
    }

    /** As {@link #send}, for a control message in the codec's bytes (to itself: handed over as it is). */
    @Override
    public void sendControl(int destinationWorldRank, ControlMessage message) {
        checkRank(destinationWorldRank);
        if (closed.get()) {
            return;
        }
        if (destinationWorldRank == worldRank) {
            inbound.control(message);
            return;
        }
        byte[] bytes = codec.encode(message);
        if (1 + bytes.length > WireFormat.recordBytes(options.maxPayloadBytes())) {
            throw new RewindException(
                    ErrorClass.OTHER, "rewind: tcp: a control message of " + bytes.length + " bytes is too long");
        }
        OutboundLink link = destinations[destinationWorldRank].link(this::connect);
        if (link != null) {
            link.write(WireFormat.encodeControl(link.alloc(), bytes), readyTimeout, options.stallTimeout());
        }
    }

    /**
     * Makes {@code sink} the local rank's endpoint; what arrived before is handed to it first.
     *
     * @throws IllegalArgumentException if {@code worldRank} is not this transport's rank
     */
    @Override
    public void attach(int worldRank, FrameSink sink) {
        if (worldRank != this.worldRank) {
            throw new IllegalArgumentException(
                    "the TCP transport of rank " + this.worldRank + " cannot attach rank " + worldRank);
        }
        inbound.attach(Objects.requireNonNull(sink, "sink"));
    }

    /**
     * In a rank's thread that busy-polls while it waits: writes what waits for room on the outbound
     * connections and reads what arrived on the inbound ones, handing it to the sink, without blocking.
     * While the rank polls, the poller's thread stays off the sockets, so nothing else wakes up.
     */
    /** The inbound connections read now (tests look at their sockets). */
    List<InboundStream> inboundStreams() {
        return poller.inbound();
    }

    @Override
    public boolean poll() {
        return poller.poll();
    }

    /** True for every peer but this rank itself: a frame is encoded whole into a record, then written. */
    @Override
    public boolean stagesPayload(int destinationWorldRank) {
        return destinationWorldRank != worldRank;
    }

    @Override
    public void flushOutbound() {
        poller.flushWaiting();
    }

    /** The rank stops polling (it parks): the poller's thread reads the sockets from now on. */
    @Override
    public void pollingPaused() {
        poller.pollingPaused();
    }

    /**
     * Always false: a frame handed to another process cannot be taken back from here. A cancelled
     * synchronous send asks its receiver instead ({@link io.rewind.engine.SendCancellation}).
     */
    @Override
    public boolean withdraw(int destinationWorldRank, Frame frame) {
        return false;
    }

    @Override
    public boolean sharesMemory() {
        return false;
    }

    @Override
    public String name() {
        return "tcp";
    }

    /** Closes every connection and the listening socket, and stops the event loops (waiting a few seconds at most). */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        inbound.close();
        for (Destination d : destinations) {
            close(d.close());
        }
        listener.close();
        for (Channel ch : accepted) {
            ch.close();
        }
        poller.close();
        loops.group().shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** The event loops in use (tests check the native transport and the thread names). */
    EventLoops loops() {
        return loops;
    }

    /** How much arrived before {@link #attach} and waits for it (tests). */
    int waitingForAttach() {
        return inbound.waitingForAttach();
    }

    /**
     * On the event loop: an accepted connection proved the secret. Once the handshake has answered, it
     * leaves the event loop, and the poller (or the rank, while it busy-polls) reads it for records,
     * starting with what the handshake decoder had read beyond the hello.
     */
    private void authenticated(ChannelHandlerContext ctx, PeerIdentity peer) {
        Channel ch = ctx.channel();
        ch.attr(PEER).set(peer);
        if (closed.get()) {
            ch.close();
        }
        inbound.admit(peer.worldRank(), peer.incarnation()); // heard of: older incarnations are fenced
        ch.config().setAutoRead(false);
        Leftover leftover = new Leftover();
        ctx.pipeline().addLast("leftover", leftover);
        // After the handshake's answer is written and its decoder removed (this runs inside its decode).
        ctx.executor().execute(() -> takeOver(ch, peer, leftover));
    }

    /** On the event loop: the authenticated connection leaves it, for the poller. */
    private void takeOver(Channel ch, PeerIdentity peer, Leftover leftover) {
        if (!ch.isActive()) {
            leftover.release();
            return;
        }
        if (ch.unsafe().outboundBuffer() != null
                && !ch.unsafe().outboundBuffer().isEmpty()) {
            ch.eventLoop().execute(() -> takeOver(ch, peer, leftover)); // the answer is still being written
            return;
        }
        ch.deregister().addListener(f -> {
            accepted.remove(ch);
            if (!f.isSuccess() || closed.get()) {
                leftover.release();
                ch.close();
                return;
            }
            RecordReader reader = new RecordReader(worldRank, peer, codec, inbound, notices, byte[]::new);
            InboundStream stream = new InboundStream(
                    ((DataChannels.Socket) ch).socket(),
                    new RecordStream(options.maxPayloadBytes(), reader),
                    notices,
                    ch.remoteAddress());
            stream.preload(leftover.take()); // a fenced incarnation's records are dropped by the reader
            poller.add(stream);
        });
    }

    /** Collects what the handshake decoder read beyond the hello, until the connection leaves the loop. */
    private static final class Leftover extends ChannelInboundHandlerAdapter {
        private final CompositeByteBuf bytes = Unpooled.compositeBuffer();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            bytes.addComponent(true, (ByteBuf) msg);
        }

        java.nio.ByteBuffer take() {
            java.nio.ByteBuffer copy = java.nio.ByteBuffer.allocate(bytes.readableBytes());
            bytes.readBytes(copy);
            bytes.release();
            return copy.flip();
        }

        void release() {
            bytes.release();
        }
    }

    private OutboundLink connect(PeerIdentity target, InetSocketAddress address) {
        return OutboundLink.open(
                connector,
                target,
                address,
                secret,
                new PeerIdentity(worldRank, incarnation),
                options.handshakeTimeout(),
                notices,
                poller,
                options.writeBufferLowBytes(),
                options.writeBufferHighBytes());
    }

    private void checkRank(int rank) {
        if (rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " out of range (the job has " + worldSize + " ranks)");
        }
    }

    private static void close(OutboundLink link) {
        if (link != null) {
            link.close();
        }
    }

    @Override
    public String toString() {
        return "TcpTransport[rank " + worldRank + "." + incarnation + " of " + worldSize + " at " + localAddress()
                + "]";
    }
}
