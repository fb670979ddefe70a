package io.rewind.launch;

import io.rewind.launch.liveness.PeerWatch;
import io.rewind.notice.RuntimeNotices;
import io.rewind.transport.JobSecret;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.function.Consumer;

/**
 * One control connection of a job: between the launcher and a node agent, or the launcher and a
 * rank process. Low-rate and ordered, so a blocking socket with one reader thread is enough. Before
 * anything else both ends prove the job's secret (a challenge each way, answered by an HMAC), so a
 * process without it is refused before a single message of its is read. Messages are the records of
 * {@link Messages} and the ranks' events ({@link io.rewind.runtime.rank.RankEvent}), Java-serialised through a filter that admits those types only.
 */
final class Link implements AutoCloseable {
    private static final int MAGIC = 0x52574C4B; // "RWLK"
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /** Upper bound on one control message: a checkpoint's frontiers or a rank's determinants fit easily. */
    static final long CONTROL_MESSAGE_BYTES = 64L << 20;
    /** Upper bound on one message of a checkpoint service: a whole encoded checkpoint file. */
    static final long STORAGE_MESSAGE_BYTES = Integer.MAX_VALUE;

    private static final String ADMITTED = "io.rewind.launch.*;io.rewind.runtime.CommunicatorRegistry$Request"
            + ";io.rewind.engine.CommunicatorFactory$Created;io.rewind.runtime.FailureSchedule"
            + ";io.rewind.runtime.FailureSchedule$*;io.rewind.ft.EventLogger$Records;io.rewind.ft.log.StorageBackend"
            + ";io.rewind.engine.FailureDecision;io.rewind.engine.FailureDecision$Kind;io.rewind.runtime.coordinator.Command$*"
            + ";io.rewind.runtime.rank.*;io.rewind.runtime.RankOutcome$Status;io.rewind.engine.TrafficCounters$Sent;java.lang.*;java.util.*;[I;[J;[B;[Ljava.lang.*;!*";

    /** How {@link #startReader} reports a message the filter refused. */
    static final String REFUSED = "refused a message: ";
    /** How {@link #startReader} reports a message its handler threw on. */
    static final String UNHANDLED = "a message could not be handled: ";

    /** Whether a link ended on a message it could not take, rather than on its peer going away. */
    static boolean brokeOnMessage(String why) {
        return why.startsWith(REFUSED) || why.startsWith(UNHANDLED);
    }

    private static ObjectInputFilter filter(long maxMessageBytes) {
        long maxArray = Math.min(maxMessageBytes, Integer.MAX_VALUE - 8);
        return ObjectInputFilter.Config.createFilter(
                "maxbytes=" + maxMessageBytes + ";maxdepth=16;maxrefs=1000000;maxarray=" + maxArray + ";" + ADMITTED);
    }

    private final Socket socket;
    private final String name;
    private final ObjectOutputStream out;
    private final ObjectInputStream in;
    private volatile boolean closed;
    /** What judges the other end's liveness by what this link hears from it; null: nothing does. */
    private volatile PeerWatch watch;

    private Link(Socket socket, String name, long maxMessageBytes) throws IOException {
        this.socket = socket;
        this.name = name;
        this.out = new ObjectOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        out.flush();
        this.in = new ObjectInputStream(new BufferedInputStream(socket.getInputStream()));
        in.setObjectInputFilter(filter(maxMessageBytes));
    }

    /** Connects to the launcher at {@code address} and proves the secret both ways. */
    static Link connect(InetSocketAddress address, JobSecret secret, String name) throws IOException {
        return connect(address, secret, name, CONTROL_MESSAGE_BYTES);
    }

    /**
     * Connects to the launcher or a node's checkpoint service at {@code address} and proves the secret
     * both ways; messages read on this link may be up to {@code maxMessageBytes} long.
     */
    static Link connect(InetSocketAddress address, JobSecret secret, String name, long maxMessageBytes)
            throws IOException {
        Socket s = new Socket();
        try {
            s.connect(address, HANDSHAKE_TIMEOUT_MILLIS);
            s.setTcpNoDelay(true);
            s.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
            DataInputStream din = new DataInputStream(s.getInputStream());
            DataOutputStream dout = new DataOutputStream(s.getOutputStream());
            byte[] theirChallenge = din.readNBytes(JobSecret.CHALLENGE_BYTES);
            byte[] myChallenge = JobSecret.challenge();
            dout.writeInt(MAGIC);
            dout.write(secret.prove(theirChallenge));
            dout.write(myChallenge);
            dout.flush();
            byte[] proof = din.readNBytes(JobSecret.PROOF_BYTES);
            if (!secret.verify(myChallenge, proof)) {
                throw new IOException("the peer at " + address + " did not prove the job's secret");
            }
            s.setSoTimeout(0);
            return new Link(s, name, maxMessageBytes);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The accepting side of {@link #connect}: refuses (and closes) a peer that cannot prove the secret. */
    static Link accept(Socket s, JobSecret secret, String name) throws IOException {
        return accept(s, secret, name, CONTROL_MESSAGE_BYTES);
    }

    /** {@link #accept}, reading messages of up to {@code maxMessageBytes}. */
    static Link accept(Socket s, JobSecret secret, String name, long maxMessageBytes) throws IOException {
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
            DataInputStream din = new DataInputStream(s.getInputStream());
            DataOutputStream dout = new DataOutputStream(s.getOutputStream());
            byte[] myChallenge = JobSecret.challenge();
            dout.write(myChallenge);
            dout.flush();
            if (din.readInt() != MAGIC) {
                throw new IOException("not a rewind control connection");
            }
            byte[] proof = din.readNBytes(JobSecret.PROOF_BYTES);
            byte[] theirChallenge = din.readNBytes(JobSecret.CHALLENGE_BYTES);
            if (theirChallenge.length != JobSecret.CHALLENGE_BYTES || !secret.verify(myChallenge, proof)) {
                throw new IOException("the peer did not prove the job's secret");
            }
            dout.write(secret.prove(theirChallenge));
            dout.flush();
            s.setSoTimeout(0);
            return new Link(s, name, maxMessageBytes);
        } catch (SocketTimeoutException e) {
            s.close();
            throw new IOException("no handshake within " + HANDSHAKE_TIMEOUT_MILLIS + " ms", e);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Sends one message; safe from several threads. An error closes the link. Whether the message went
     * (false: the link was closed, or broke as it was written).
     */
    boolean send(Serializable message) {
        synchronized (out) {
            if (closed) {
                return false;
            }
            try {
                out.writeObject(message);
                out.reset(); // no back-references across messages: each is read on its own
                out.flush();
                return true;
            } catch (IOException e) {
                // Closed before it is said: a rank process says it over a link (to the launcher), and
                // if that is the link that broke the notice must find it closed, not fail again.
                boolean wasOpen = !closed;
                close();
                if (wasOpen) {
                    RuntimeNotices.print("rewind: link " + name + ": cannot send "
                            + message.getClass().getSimpleName() + ": " + e);
                }
                return false;
            }
        }
    }

    /**
     * Starts the reader: a named daemon thread handing each message to {@code onMessage} in order, and
     * calling {@code onClose} once when the link ends (closed, broken, or a message refused).
     */
    Thread startReader(Consumer<Object> onMessage, Consumer<String> onClose) {
        Thread t = Thread.ofPlatform().name("rewind-link-" + name).daemon(true).start(() -> {
            String why = "closed";
            try {
                while (true) {
                    Object m = in.readObject();
                    PeerWatch w = watch;
                    if (w != null) {
                        w.heard(m instanceof Messages.Heartbeat);
                    }
                    // Probes are the link's own business: answered here, by the reader, so that an end
                    // whose other threads are busy or starved still shows it is alive.
                    if (m instanceof Messages.Probe p) {
                        send(new Messages.ProbeAnswer(p.number()));
                    } else if (m instanceof Messages.ProbeAnswer a) {
                        if (w != null) {
                            w.answered(a.number());
                        }
                    } else {
                        onMessage.accept(m);
                    }
                }
            } catch (EOFException e) {
                why = "closed by the peer";
            } catch (InvalidClassException e) {
                why = REFUSED + e.getMessage();
            } catch (IOException | ClassNotFoundException e) {
                why = closed ? "closed" : e.toString();
            } catch (RuntimeException e) {
                why = UNHANDLED + e;
                e.printStackTrace();
            } finally {
                close();
                onClose.accept(why);
            }
        });
        return t;
    }

    /** The local address of this link's socket: the interface that reaches the other end. */
    java.net.InetAddress localAddress() {
        return socket.getLocalAddress();
    }

    String name() {
        return name;
    }

    /**
     * From now on, tells {@code w} of every message this link reads, and of the answers to its probes;
     * what came before is not told.
     */
    void watchWith(PeerWatch w) {
        watch = w;
    }

    /** Sends the other end the probe the watch asked for: its answer comes back through the watch. */
    void probe(long number) {
        send(new Messages.Probe(number));
    }

    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing: nothing left to do with it
        }
    }
}
