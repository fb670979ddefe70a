package mpi.conformance.env;

import static mpi.conformance.Jobs.check;
import static mpi.conformance.Jobs.checkEq;
import static mpi.conformance.Jobs.expectError;
import static mpi.conformance.Jobs.run;
import static mpi.conformance.Jobs.runOk;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.JobResult;
import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** MPI standard chapter 8 (environment) and error handling, including misuse of the API. */
@Tag("conformance")
class EnvironmentTest {

    @Test
    void initQueryAndFinalize() {
        JobResult r = runOk(Lifecycle.class, 2);
        assertEquals("ok 0", r.output(0).get(r.output(0).size() - 1));
    }

    @Test
    void misuseGivesAClearErrorOfTheRightClass() {
        runOk(Misuse.class, 2);
    }

    @Test
    void errorsAreFatalAbortsTheJob() {
        JobResult r = run(Fatal.class, 3);
        assertFalse(r.ok());
        assertTrue(r.describeFailures().contains("ERRORS_ARE_FATAL"), r.describeFailures());
    }

    @Test
    void abortEndsEveryRankWithTheErrorCode() {
        JobResult r = run(Abort.class, 3);
        assertEquals(7, r.exitCode(), r.describeFailures());
    }

    @Test
    void returningWithoutFinalizeIsAFailure() {
        assertFalse(run(NoFinalize.class, 1).ok());
    }

    public static final class Lifecycle {
        public static void main(String[] args) throws MPIException {
            check(!MPI.isInitialized(), "not initialized before Init");
            expectError(MPI.ERR_OTHER, "call before Init", () -> MPI.COMM_WORLD.getRank());
            int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
            checkEq(MPI.THREAD_MULTIPLE, provided, "provided thread level");
            checkEq(provided, MPI.queryThread(), "queryThread");
            check(MPI.isThreadMain(), "isThreadMain");
            check(MPI.isInitialized(), "initialized");
            expectError(MPI.ERR_OTHER, "second Init", () -> MPI.Init(args));
            double t0 = MPI.wtime();
            check(MPI.wtime() >= t0 && MPI.wtick() > 0, "timer");
            check(!MPI.getProcessorName().isEmpty(), "processor name");
            check(MPI.COMM_WORLD.getErrhandler() == MPI.ERRORS_RETURN, "default error handler returns errors");
            MPI.Finalize();
            check(MPI.isFinalized(), "finalized");
            expectError(MPI.ERR_OTHER, "call after Finalize", () -> MPI.COMM_WORLD.barrier());
            System.out.println("ok " + 0);
        }
    }

    public static final class Misuse {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            var w = MPI.COMM_WORLD;
            int n = w.getSize();
            expectError(MPI.ERR_RANK, "destination out of range", () -> w.send(new int[1], 1, MPI.INT, n, 0));
            expectError(MPI.ERR_RANK, "source out of range", () -> w.recv(new int[1], 1, MPI.INT, -5, 0));
            expectError(MPI.ERR_COUNT, "negative count", () -> w.send(new int[1], -1, MPI.INT, 0, 0));
            expectError(MPI.ERR_COUNT, "count beyond the buffer", () -> w.send(new int[1], 2, MPI.INT, 0, 0));
            expectError(
                    MPI.ERR_COUNT, "more ints than a double[] holds", () -> w.send(new double[1], 3, MPI.INT, 0, 0));
            expectError(MPI.ERR_TAG, "negative tag", () -> w.send(new int[1], 1, MPI.INT, 0, -3));
            expectError(MPI.ERR_BUFFER, "null buffer", () -> w.send(null, 1, MPI.INT, 0, 0));
            expectError(MPI.ERR_BUFFER, "unsupported buffer class", () -> w.send("text", 1, MPI.INT, 0, 0));
            expectError(
                    MPI.ERR_BUFFER,
                    "read-only receive buffer",
                    () -> w.recv(IntBuffer.allocate(1).asReadOnlyBuffer(), 1, MPI.INT, 0, 0));
            expectError(MPI.ERR_ROOT, "bad root", () -> w.bcast(new int[1], 1, MPI.INT, n));
            mpi.Datatype t = mpi.Datatype.createContiguous(2, MPI.INT);
            expectError(MPI.ERR_TYPE, "uncommitted datatype", () -> w.send(new int[2], 1, t, 0, 0));
            t.commit();
            t.free();
            expectError(MPI.ERR_TYPE, "freed datatype", () -> w.send(new int[2], 1, t, 0, 0));
            expectError(MPI.ERR_TYPE, "free a predefined datatype", MPI.INT::free);
            MPIException e = null;
            try {
                w.recv(new int[1], 1, MPI.INT, n + 3, 0);
            } catch (MPIException ex) {
                e = ex;
            }
            check(
                    e != null
                            && e.getErrorCode() == MPI.ERR_RANK
                            && e.getMessage().contains("rank"),
                    "exception carries code and message");
            // The communicator still works after errors were returned.
            int[] s = new int[1];
            w.allReduce(new int[] {1}, s, 1, MPI.INT, MPI.SUM);
            checkEq(n, s[0], "communicator usable after returned errors");
            MPI.Finalize();
        }
    }

    public static final class Fatal {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            if (MPI.COMM_WORLD.getRank() == 1) {
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 99, 0);
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }
    }

    public static final class Abort {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            if (MPI.COMM_WORLD.getRank() == 2) {
                MPI.COMM_WORLD.abort(7);
            }
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0); // never satisfied
            MPI.Finalize();
        }
    }

    public static final class NoFinalize {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
        }
    }
}
