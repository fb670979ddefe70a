package io.rewind.transport.tcp;

import io.rewind.transport.JobSecret;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

/**
 * The mutual handshake that opens every connection of a job, before a single byte of it is read as
 * a record. Both sides prove they hold the {@link JobSecret} by an HMAC of a fresh challenge of the
 * other side, so neither can be replayed. Big-endian:
 *
 * <ol>
 *   <li>accepting side: a challenge ({@value JobSecret#CHALLENGE_BYTES} bytes);
 *   <li>connecting side, the hello ({@value #HELLO_BYTES} bytes): magic {@code "RWND"} (int), protocol
 *       version (int), its world rank (int), its incarnation (int), its own challenge, and its proof
 *       for the accepting side's challenge;
 *   <li>accepting side, once the proof is verified: its proof for the connecting side's challenge
 *       ({@value JobSecret#PROOF_BYTES} bytes), which the connecting side verifies before it sends
 *       anything more.
 * </ol>
 *
 * <p>It authenticates the ends, nothing more: what follows is neither encrypted nor signed, so a job's
 * network must be trusted not to alter it. A side that fails (a wrong proof, a wrong magic or version,
 * a rank outside the job, no answer in time) is refused and its connection closed.
 *
 * <p>The Netty handlers {@link AcceptingHandshake} and {@link ConnectingHandshake} run this exchange on
 * an event loop; the static methods here run it on blocking sockets (the launcher's control link).
 */
public final class Handshake {
    /** "RWND" in ASCII. */
    public static final int MAGIC = 0x52574E44;

    public static final int VERSION = 1;
    /** Magic, version, rank, incarnation, challenge, proof. */
    public static final int HELLO_BYTES = 4 * Integer.BYTES + JobSecret.CHALLENGE_BYTES + JobSecret.PROOF_BYTES;

    private Handshake() {}

    /** The connecting side's message: who it is, its challenge, its proof for the accepting side's. */
    record Hello(int magic, int version, int worldRank, int incarnation, byte[] challenge, byte[] proof) {
        static Hello of(JobSecret secret, int worldRank, int incarnation, byte[] serverChallenge) {
            return new Hello(
                    MAGIC, VERSION, worldRank, incarnation, JobSecret.challenge(), secret.prove(serverChallenge));
        }

        /** Reads a hello from exactly {@value #HELLO_BYTES} bytes. */
        static Hello read(ByteBuffer in) {
            int magic = in.getInt();
            int version = in.getInt();
            int rank = in.getInt();
            int incarnation = in.getInt();
            byte[] challenge = new byte[JobSecret.CHALLENGE_BYTES];
            in.get(challenge);
            byte[] proof = new byte[JobSecret.PROOF_BYTES];
            in.get(proof);
            return new Hello(magic, version, rank, incarnation, challenge, proof);
        }

        byte[] bytes() {
            return ByteBuffer.allocate(HELLO_BYTES)
                    .putInt(magic)
                    .putInt(version)
                    .putInt(worldRank)
                    .putInt(incarnation)
                    .put(challenge)
                    .put(proof)
                    .array();
        }

        /** Why the accepting side must refuse this hello, or null if it proves the secret. */
        String refusal(JobSecret secret, byte[] serverChallenge, int worldSize) {
            if (magic != MAGIC) {
                return String.format("bad magic 0x%08x", magic);
            }
            if (version != VERSION) {
                return "protocol version " + version + ", this side speaks " + VERSION;
            }
            if (worldRank < 0 || worldRank >= worldSize) {
                return "rank " + worldRank + " out of range (the job has " + worldSize + " ranks)";
            }
            if (incarnation < 0) {
                return "negative incarnation " + incarnation;
            }
            if (!secret.verify(serverChallenge, proof)) {
                return "wrong proof of the job secret";
            }
            return null;
        }

        PeerIdentity identity() {
            return new PeerIdentity(worldRank, incarnation);
        }
    }

    /**
     * The connecting side of the handshake on a blocking socket. The socket's read timeout is {@code
     * timeout} for the exchange and restored after it.
     *
     * @throws HandshakeException if the accepting side does not prove the secret, closes the
     *     connection, or does not answer within {@code timeout}
     */
    public static void connect(Socket socket, JobSecret secret, int worldRank, int incarnation, Duration timeout)
            throws IOException {
        withTimeout(socket, timeout, () -> {
            connect(socket.getInputStream(), socket.getOutputStream(), secret, worldRank, incarnation);
            return null;
        });
    }

    /**
     * The accepting side of the handshake on a blocking socket, for a job of {@code worldSize} ranks.
     *
     * @return who connected
     * @throws HandshakeException if the connecting side is refused (the caller closes the socket)
     */
    public static PeerIdentity accept(Socket socket, JobSecret secret, int worldSize, Duration timeout)
            throws IOException {
        return withTimeout(
                socket, timeout, () -> accept(socket.getInputStream(), socket.getOutputStream(), secret, worldSize));
    }

    /** The connecting side on blocking streams (no timeout of its own). */
    public static void connect(InputStream in, OutputStream out, JobSecret secret, int worldRank, int incarnation)
            throws IOException {
        DataInputStream input = new DataInputStream(in);
        byte[] serverChallenge = readFully(input, JobSecret.CHALLENGE_BYTES, "the challenge");
        Hello hello = Hello.of(secret, worldRank, incarnation, serverChallenge);
        out.write(hello.bytes());
        out.flush();
        byte[] proof = readFully(input, JobSecret.PROOF_BYTES, "the proof of the accepting side");
        if (!secret.verify(hello.challenge(), proof)) {
            throw new HandshakeException("the accepting side's proof of the job secret is wrong");
        }
    }

    /** The accepting side on blocking streams (no timeout of its own). */
    public static PeerIdentity accept(InputStream in, OutputStream out, JobSecret secret, int worldSize)
            throws IOException {
        DataInputStream input = new DataInputStream(in);
        DataOutputStream output = new DataOutputStream(out);
        byte[] challenge = JobSecret.challenge();
        output.write(challenge);
        output.flush();
        Hello hello = Hello.read(ByteBuffer.wrap(readFully(input, HELLO_BYTES, "the hello")));
        String refusal = hello.refusal(secret, challenge, worldSize);
        if (refusal != null) {
            throw new HandshakeException(refusal);
        }
        output.write(secret.prove(hello.challenge()));
        output.flush();
        return hello.identity();
    }

    private static byte[] readFully(DataInputStream in, int n, String what) throws IOException {
        byte[] bytes = new byte[n];
        try {
            in.readFully(bytes);
        } catch (EOFException e) {
            throw new HandshakeException("the connection closed before " + what);
        } catch (SocketTimeoutException e) {
            throw new HandshakeException("no answer in time (waiting for " + what + ")");
        }
        return bytes;
    }

    private interface Exchange<T> {
        T run() throws IOException;
    }

    private static <T> T withTimeout(Socket socket, Duration timeout, Exchange<T> exchange) throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout(Math.toIntExact(Math.max(1, timeout.toMillis())));
        try {
            return exchange.run();
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(before);
            }
        }
    }
}
