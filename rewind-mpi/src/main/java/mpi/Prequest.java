package mpi;

/**
 * A persistent request: the arguments of a send or receive, kept so that {@link #start()} can begin
 * the same operation again and again. Each start creates a fresh engine operation (and packs the
 * send buffer afresh), as MPI requires.
 */
public final class Prequest extends Request {
    /** Begins one instance of the operation. */
    @FunctionalInterface
    interface Starter {
        void start(Prequest into) throws MPIException;
    }

    private final Starter starter;
    private boolean freed;

    Prequest(Comm owner, Starter starter) {
        super(owner, null);
        this.starter = starter;
    }

    @Override
    boolean persistent() {
        return true;
    }

    public void start() throws MPIException {
        MPI.check();
        if (freed) {
            throw Failures.error(MPI.ERR_REQUEST, "start on a freed persistent request");
        }
        if (isActive()) {
            throw Failures.error(MPI.ERR_REQUEST, "start on a persistent request that is still active");
        }
        starter.start(this);
    }

    public static void startAll(Prequest[] requests) throws MPIException {
        MPI.check();
        for (Prequest p : requests) {
            p.start();
        }
    }

    @Override
    public void free() throws MPIException {
        if (freed) {
            return;
        }
        super.free();
        freed = true;
    }

    @Override
    public boolean isNull() {
        return freed;
    }
}
