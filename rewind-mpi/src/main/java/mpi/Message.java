package mpi;

import io.rewind.engine.MatchedMessage;
import io.rewind.engine.RecvRequest;
import java.nio.Buffer;

/**
 * A message handle ({@code MPI_Message}) for matched probes: {@link #mProbe} or {@link #imProbe}
 * takes a message out of matching, so no other receive or probe of the rank can take it, and {@link
 * #mRecv} or {@link #imRecv} receives exactly that message. A new object, and one whose message was
 * received, is the null message ({@link #isNull()}); probing {@code MPI.PROC_NULL} gives the no-process
 * message ({@link #isNoProc()}), whose receive completes at once with source {@code PROC_NULL}.
 *
 * <p>Under a logging protocol a wildcard-source or non-blocking matched probe is a non-deterministic
 * event: its outcome is recorded, and a restarted rank takes the same message again.
 */
public final class Message {
    /** The message taken; null for the null message. */
    private MatchedMessage message;
    /** The communicator it was probed on: its error handler applies to the receive. */
    private Comm comm;

    public Message() {}

    public boolean isNull() {
        return message == null;
    }

    public boolean isNoProc() {
        return message == MatchedMessage.NO_PROC;
    }

    /** Blocks until a message from {@code source} with {@code tag} is available, and takes it. */
    public Status mProbe(int source, int tag, Comm comm) throws MPIException {
        checkEmpty(comm);
        MatchedMessage m = comm.guarded(() -> comm.comm().mprobe(source, tag));
        take(m, comm);
        return envelope(m);
    }

    /** Takes a matching message if one is available; null (and this stays as it was) otherwise. */
    public Status imProbe(int source, int tag, Comm comm) throws MPIException {
        checkEmpty(comm);
        MatchedMessage m = comm.guarded(() -> comm.comm().improbe(source, tag));
        if (m == null) {
            return null;
        }
        take(m, comm);
        return envelope(m);
    }

    /** Receives the message into {@code buf}; this becomes the null message. */
    public Status mRecv(Object buf, int count, Datatype type) throws MPIException {
        Comm c = probedOn();
        return c.guarded(() -> start(c, buf, count, type).waitStatus());
    }

    /** Receives the message into {@code buf}; this becomes the null message. */
    public Request imRecv(Buffer buf, int count, Datatype type) throws MPIException {
        Comm c = probedOn();
        return c.guarded(() -> start(c, buf, count, type));
    }

    /**
     * A probe into a handle that still holds a message would lose that message for good (nobody else
     * can receive it), so it is refused before anything is taken.
     */
    private void checkEmpty(Comm c) throws MPIException {
        MPI.check();
        if (message != null && message != MatchedMessage.NO_PROC) {
            throw c.fail(Failures.error(
                    MPI.ERR_REQUEST, "this Message still holds a probed message; receive it before probing again"));
        }
    }

    private void take(MatchedMessage m, Comm c) {
        this.message = m;
        this.comm = c;
    }

    private Comm probedOn() throws MPIException {
        MPI.check();
        if (message == null) {
            throw Failures.handle(
                    comm == null ? null : comm.errhandler(),
                    Failures.error(MPI.ERR_REQUEST, "receive of the null message (no matched probe took one)"));
        }
        return comm;
    }

    private Request start(Comm c, Object buf, int count, Datatype type) throws MPIException {
        Region r = Region.of(buf, count, type, Region.Use.WRITE, "receive buffer");
        RecvRequest q = c.comm().mrecv(message, r.segment, 0, r.bytes);
        message = null;
        return new Request(c, q, r);
    }

    private static Status envelope(MatchedMessage m) {
        return new Status(m.source(), m.tag(), MPI.SUCCESS, false, m.lengthBytes());
    }
}
