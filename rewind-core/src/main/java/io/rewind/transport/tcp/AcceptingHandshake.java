package io.rewind.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.rewind.transport.JobSecret;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The accepting side of the {@link Handshake}, first in the pipeline of an accepted connection: sends
 * a challenge, reads the hello, and only once it proves the job secret hands the connection on (the
 * continuation installs what reads the connection from then on) and answers with its own proof. A
 * connection that fails, or says nothing within the timeout, is refused with a logged reason and
 * closed. Bytes that follow the hello reach the handlers the continuation installed.
 */
public final class AcceptingHandshake extends ByteToMessageDecoder {
    /** What to do with an authenticated connection: install its handlers after {@code ctx}. */
    @FunctionalInterface
    public interface Continuation {
        void authenticated(ChannelHandlerContext ctx, PeerIdentity peer);
    }

    private final JobSecret secret;
    private final int worldSize;
    private final Duration timeout;
    private final Continuation continuation;
    private final Notices notices;
    private final byte[] challenge = JobSecret.challenge();
    private ScheduledFuture<?> deadline;
    private boolean finished;

    AcceptingHandshake(JobSecret secret, int worldSize, Duration timeout, Continuation continuation, Notices notices) {
        this.secret = secret;
        this.worldSize = worldSize;
        this.timeout = timeout;
        this.continuation = continuation;
        this.notices = notices;
    }

    /** For other links of a job (such as a launcher's control connections); notices go to System.err. */
    public static AcceptingHandshake of(JobSecret secret, int worldSize, Duration timeout, Continuation continuation) {
        return new AcceptingHandshake(secret, worldSize, timeout, continuation, new Notices(System.err::println));
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.writeAndFlush(ctx.alloc().buffer(challenge.length).writeBytes(challenge));
        deadline = ctx.executor()
                .schedule(
                        () -> refuse(ctx, "no hello within " + timeout.toMillis() + " ms"),
                        timeout.toMillis(),
                        TimeUnit.MILLISECONDS);
        super.channelActive(ctx);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (finished) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (in.readableBytes() < Handshake.HELLO_BYTES) {
            return;
        }
        byte[] bytes = new byte[Handshake.HELLO_BYTES];
        in.readBytes(bytes);
        Handshake.Hello hello = Handshake.Hello.read(ByteBuffer.wrap(bytes));
        String refusal = hello.refusal(secret, challenge, worldSize);
        if (refusal != null) {
            in.skipBytes(in.readableBytes());
            refuse(ctx, refusal);
            return;
        }
        finished = true;
        deadline.cancel(false);
        byte[] proof = secret.prove(hello.challenge());
        continuation.authenticated(ctx, hello.identity());
        ctx.writeAndFlush(ctx.alloc().buffer(proof.length).writeBytes(proof));
        // Removing a decoder hands what it has buffered beyond the hello to the next handler.
        ctx.pipeline().remove(this);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        if (deadline != null) {
            deadline.cancel(false);
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        refuse(ctx, String.valueOf(cause));
    }

    private void refuse(ChannelHandlerContext ctx, String reason) {
        if (finished) {
            return;
        }
        finished = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        notices.refused("a connection", ctx.channel().remoteAddress(), reason);
        ctx.close();
    }
}
