package io.rewind.transport.tcp;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.rewind.engine.ControlMessage;
import io.rewind.engine.Frame;
import io.rewind.ft.ControlMessageCodec;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * A peer on a plain blocking socket, for tests that need to say exactly what goes on the wire: it
 * connects, may run the handshake, and writes whatever bytes it is given.
 */
final class RawPeer implements AutoCloseable {
    final Socket socket;

    private RawPeer(Socket socket) {
        this.socket = socket;
    }

    /** Connected, no handshake yet. */
    static RawPeer connect(InetSocketAddress address) throws IOException {
        Socket s = new Socket();
        s.connect(address, 5_000);
        s.setTcpNoDelay(true);
        return new RawPeer(s);
    }

    /** Connected and authenticated as {@code rank}.{@code incarnation} with {@code secret}. */
    static RawPeer authenticated(InetSocketAddress address, JobSecret secret, int rank, int incarnation)
            throws IOException {
        RawPeer p = connect(address);
        Handshake.connect(p.socket, secret, rank, incarnation, Duration.ofSeconds(5));
        return p;
    }

    void write(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    void writeFrame(Frame f) throws IOException {
        write(frameRecord(f));
    }

    void writeControl(ControlMessage m) throws IOException {
        ByteBuf b = WireFormat.encodeControl(UnpooledByteBufAllocator.DEFAULT, ControlMessageCodec.INSTANCE.encode(m));
        write(bytesOf(b));
    }

    /** Reads exactly {@code n} bytes. */
    byte[] read(int n) throws IOException {
        socket.setSoTimeout(10_000);
        return socket.getInputStream().readNBytes(n);
    }

    /** Fails unless the other side closes the connection within 10 s without sending anything more. */
    void assertClosedByOtherSide() throws IOException {
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        try {
            int b = in.read();
            if (b != -1) {
                fail("the other side sent a byte (" + b + ") instead of closing");
            }
        } catch (SocketTimeoutException e) {
            fail("the other side did not close the connection within 10 s");
        } catch (SocketException e) {
            // reset by the other side: closed too
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A frame as its record on the wire (length field included). */
    static byte[] frameRecord(Frame f) {
        return bytesOf(WireFormat.encodeFrame(UnpooledByteBufAllocator.DEFAULT, f));
    }

    static byte[] bytesOf(ByteBuf b) {
        try {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            return bytes;
        } finally {
            b.release();
        }
    }

    /**
     * A frame record written field by field, so a test can put any value anywhere: {@code recordLength}
     * is the length field and {@code payload} the bytes actually sent after the header.
     */
    static byte[] rawFrameRecord(
            int recordLength,
            int context,
            int sourceWorld,
            int destinationWorld,
            int tag,
            long sequence,
            int incarnation,
            long payloadLength,
            byte[] payload) {
        return rawFrameRecord(
                recordLength,
                context,
                sourceWorld,
                destinationWorld,
                tag,
                sequence,
                incarnation,
                0,
                payloadLength,
                payload);
    }

    /** As above, with the frame's recovery line ({@link io.rewind.engine.Frame#line()}) set to {@code line}. */
    static byte[] rawFrameRecord(
            int recordLength,
            int context,
            int sourceWorld,
            int destinationWorld,
            int tag,
            long sequence,
            int incarnation,
            int line,
            long payloadLength,
            byte[] payload) {
        return ByteBuffer.allocate(4 + 1 + WireFormat.FRAME_HEADER_BYTES + payload.length)
                .putInt(recordLength)
                .put(WireFormat.FRAME)
                .putInt(context)
                .putInt(0)
                .putInt(sourceWorld)
                .putInt(destinationWorld)
                .putInt(tag)
                .putLong(sequence)
                .putInt(incarnation)
                .putInt(0)
                .putInt(0)
                .putInt(line)
                .putInt(0)
                .putLong(payloadLength)
                .put(payload)
                .array();
    }
}
