package io.rewind.transport.tcp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.rewind.transport.JobSecret;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The connecting side of the {@link Handshake}, first in the pipeline of an outbound connection: waits
 * for the challenge, sends the hello, and verifies the accepting side's proof before anything else may
 * be sent; then the continuation runs (it lets the writers in) and this handler leaves the pipeline. An
 * accepting side that fails, or does not answer within the timeout, is refused with a logged reason
 * and the connection closed (the handlers after this one see it close).
 */
public final class ConnectingHandshake extends ByteToMessageDecoder {
    /** Called on the event loop once the accepting side has proved the job secret. */
    @FunctionalInterface
    public interface Continuation {
        void authenticated(ChannelHandlerContext ctx);
    }

    private final JobSecret secret;
    private final int worldRank;
    private final int incarnation;
    private final Duration timeout;
    private final Continuation continuation;
    private final Notices notices;
    private byte[] ownChallenge; // null until the hello is sent
    private ScheduledFuture<?> deadline;
    private boolean finished;

    ConnectingHandshake(
            JobSecret secret,
            int worldRank,
            int incarnation,
            Duration timeout,
            Continuation continuation,
            Notices notices) {
        this.secret = secret;
        this.worldRank = worldRank;
        this.incarnation = incarnation;
        this.timeout = timeout;
        this.continuation = continuation;
        this.notices = notices;
    }

    /** For other links of a job (such as a launcher's control connections); notices go to System.err. */
    public static ConnectingHandshake of(
            JobSecret secret, int worldRank, int incarnation, Duration timeout, Continuation continuation) {
        return new ConnectingHandshake(
                secret, worldRank, incarnation, timeout, continuation, new Notices(System.err::println));
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        deadline = ctx.executor()
                .schedule(
                        () -> refuse(ctx, "no answer within " + timeout.toMillis() + " ms"),
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
        if (ownChallenge == null) {
            if (in.readableBytes() < JobSecret.CHALLENGE_BYTES) {
                return;
            }
            byte[] serverChallenge = new byte[JobSecret.CHALLENGE_BYTES];
            in.readBytes(serverChallenge);
            Handshake.Hello hello = Handshake.Hello.of(secret, worldRank, incarnation, serverChallenge);
            ownChallenge = hello.challenge();
            ctx.writeAndFlush(ctx.alloc().buffer(Handshake.HELLO_BYTES).writeBytes(hello.bytes()));
        }
        if (in.readableBytes() < JobSecret.PROOF_BYTES) {
            return;
        }
        byte[] proof = new byte[JobSecret.PROOF_BYTES];
        in.readBytes(proof);
        if (!secret.verify(ownChallenge, proof)) {
            in.skipBytes(in.readableBytes());
            refuse(ctx, "wrong proof of the job secret");
            return;
        }
        finished = true;
        deadline.cancel(false);
        continuation.authenticated(ctx);
        // Anything the accepting side sent after its proof reaches the next handler.
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
        notices.refused("the accepting side", ctx.channel().remoteAddress(), reason);
        ctx.close();
    }
}
