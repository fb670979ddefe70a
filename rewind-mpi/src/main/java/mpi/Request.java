package mpi;

import io.rewind.engine.PollKind;
import io.rewind.engine.RankEngine;
import io.rewind.engine.RewindException;

/**
 * A non-blocking operation. Completing it (wait or test) makes it inactive; an ordinary request then
 * becomes the null request ({@link #isNull()}), a persistent one ({@link Prequest}) can be started
 * again. Completing a receive whose datatype had to be staged also unpacks the data.
 */
public class Request implements Freeable {
    /** The operation in flight, or null when inactive. */
    private io.rewind.engine.Request active;

    private Region[] outputs = new Region[0];
    /** Whose error handler applies to failures of this request (null: errors are returned). */
    final Comm owner;

    private boolean isNullHandle;

    Request(Comm owner, io.rewind.engine.Request active, Region... outputs) {
        this.owner = owner;
        this.active = active;
        this.outputs = outputs;
        this.isNullHandle = active == null;
    }

    static Request nullRequest() {
        return new Request(null, null);
    }

    final void activate(io.rewind.engine.Request request, Region... regions) {
        this.active = request;
        this.outputs = regions;
    }

    final boolean isActive() {
        return active != null;
    }

    /** Whether an inactive request stays usable (persistent) rather than becoming the null request. */
    boolean persistent() {
        return false;
    }

    private MPIException failure(MPIException e) {
        return Failures.handle(owner == null ? null : owner.errhandler(), e);
    }

    private MPIException failure(RewindException e) {
        return failure(Failures.convertOrRethrow(e));
    }

    /** Waits for the active operation without throwing its own failure (job aborts still throw). */
    private static void awaitQuietly(io.rewind.engine.Request r) {
        try {
            r.await();
        } catch (RewindException e) {
            if (!r.isComplete() || r.failure() != e) {
                throw e;
            }
        }
    }

    /** Completes the (finished) active operation: unpacks, deactivates, reports failure. */
    private Status finishActive() throws MPIException {
        io.rewind.engine.Request r = active;
        active = null;
        if (!persistent()) {
            isNullHandle = true;
        }
        Region.finishAll(outputs);
        outputs = new Region[0];
        RewindException f = r.failure();
        Status s = new Status(
                r.statusSource(),
                r.statusTag(),
                f == null ? MPI.SUCCESS : f.errorClass().code(),
                r.isCancelled(),
                r.statusBytes());
        if (f != null) {
            throw failure(f);
        }
        onComplete();
        return s;
    }

    /** Called once the operation completed without error, before its status is returned (results out). */
    void onComplete() {}

    // --- single request ----------------------------------------------------------------------------

    public final Status waitStatus() throws MPIException {
        return await(false);
    }

    /**
     * The wait of a blocking call: a receive of any source that a failed peer could have satisfied
     * fails ({@code ERR_PROC_FAILED}) and is taken back, as ULFM has it, instead of staying posted.
     */
    final Status waitBlocking() throws MPIException {
        return await(true);
    }

    private Status await(boolean blockingCall) throws MPIException {
        MPI.check();
        if (active == null) {
            return Status.empty();
        }
        try {
            awaitQuietly(active);
        } catch (RewindException e) {
            if (blockingCall && e.errorClass() == io.rewind.engine.ErrorClass.PROC_FAILED_PENDING) {
                active.cancel();
                throw failure(new RewindException(io.rewind.engine.ErrorClass.PROC_FAILED, e.getMessage()));
            }
            throw failure(e);
        }
        return finishActive();
    }

    public final void waitFor() throws MPIException {
        waitStatus();
    }

    public final Status testStatus() throws MPIException {
        MPI.check();
        if (active == null) {
            return Status.empty();
        }
        if (MPI.engine().decide(new io.rewind.engine.Request[] {active}, PollKind.TEST).length > 0) {
            return finishActive();
        }
        try {
            MPI.engine().peerFailures().interrupt(active);
        } catch (RewindException e) {
            throw failure(e);
        }
        return null;
    }

    public final boolean test() throws MPIException {
        return testStatus() != null;
    }

    /** The status if the operation has completed, without deactivating the request; null otherwise. */
    public final Status getStatus() throws MPIException {
        MPI.check();
        io.rewind.engine.Request r = active;
        if (r == null) {
            return Status.empty();
        }
        if (MPI.engine().decide(new io.rewind.engine.Request[] {r}, PollKind.TEST).length == 0) {
            return null;
        }
        Region.finishAll(outputs);
        RewindException f = r.failure();
        return new Status(
                r.statusSource(),
                r.statusTag(),
                f == null ? MPI.SUCCESS : f.errorClass().code(),
                r.isCancelled(),
                r.statusBytes());
    }

    /** Cancels the operation if it has not matched yet; it must still be completed by a wait or test. */
    public final void cancel() throws MPIException {
        MPI.check();
        if (active != null) {
            active.cancel();
        }
    }

    /** Releases the request; an operation still in flight carries on but can no longer be waited for. */
    @Override
    public void free() throws MPIException {
        if (isNull()) {
            return;
        }
        MPI.check();
        active = null;
        outputs = new Region[0];
        isNullHandle = true;
    }

    public boolean isNull() {
        return isNullHandle;
    }

    // --- arrays of requests ------------------------------------------------------------------------

    private static io.rewind.engine.Request[] engineRequests(Request[] requests) throws MPIException {
        if (requests == null) {
            throw Failures.error(MPI.ERR_REQUEST, "null request array");
        }
        io.rewind.engine.Request[] e = new io.rewind.engine.Request[requests.length];
        for (int i = 0; i < requests.length; i++) {
            e[i] = requests[i] == null ? null : requests[i].active;
        }
        return e;
    }

    private static boolean noneActive(io.rewind.engine.Request[] e) {
        for (io.rewind.engine.Request r : e) {
            if (r != null) {
                return false;
            }
        }
        return true;
    }

    private static int awaitAny(io.rewind.engine.Request[] e, Request[] requests) throws MPIException {
        RankEngine engine = MPI.engine();
        try {
            int[] d = engine.decide(e, PollKind.WAIT_ANY);
            return d.length == 0 ? -1 : d[0];
        } catch (RewindException ex) {
            Comm owner = null;
            for (Request r : requests) {
                if (r != null && r.owner != null) {
                    owner = r.owner;
                    break;
                }
            }
            throw Failures.handle(owner == null ? null : owner.errhandler(), Failures.convertOrRethrow(ex));
        }
    }

    public static int waitAny(Request[] requests) throws MPIException {
        Status s = waitAnyStatus(requests);
        return s.getIndex();
    }

    public static Status waitAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        int i = awaitAny(e, requests);
        if (i < 0) {
            return Status.empty();
        }
        return requests[i].finishActive().withIndex(i);
    }

    public static int testAny(Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    public static Status testAnyStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        if (noneActive(e)) {
            return Status.empty();
        }
        int[] d = MPI.engine().decide(e, PollKind.TEST_ANY);
        if (d.length == 0) {
            return null;
        }
        return requests[d[0]].finishActive().withIndex(d[0]);
    }

    public static void waitAll(Request[] requests) throws MPIException {
        waitAllStatus(requests);
    }

    public static Status[] waitAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        for (int i = 0; i < e.length; i++) {
            if (e[i] != null) {
                try {
                    awaitQuietly(e[i]);
                } catch (RewindException ex) {
                    throw requests[i].failure(ex);
                }
            }
        }
        return finishAll(requests, e);
    }

    /** Completes every active request; the first failure is thrown once all are completed. */
    private static Status[] finishAll(Request[] requests, io.rewind.engine.Request[] e) throws MPIException {
        Status[] out = new Status[requests.length];
        MPIException first = null;
        for (int i = 0; i < requests.length; i++) {
            if (e[i] == null) {
                out[i] = Status.empty().withIndex(i);
                continue;
            }
            try {
                out[i] = requests[i].finishActive().withIndex(i);
            } catch (MPIException ex) {
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    public static boolean testAll(Request[] requests) throws MPIException {
        return testAllStatus(requests) != null;
    }

    public static Status[] testAllStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        if (!noneActive(e) && MPI.engine().decide(e, PollKind.TEST_ALL).length == 0) {
            return null;
        }
        return finishAll(requests, e);
    }

    public static int[] waitSome(Request[] requests) throws MPIException {
        return indexes(waitSomeStatus(requests));
    }

    public static Status[] waitSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        if (noneActive(e)) {
            return null;
        }
        return finishCompleted(requests, e, MPI.engine().decide(e, PollKind.WAIT_SOME));
    }

    public static int[] testSome(Request[] requests) throws MPIException {
        return indexes(testSomeStatus(requests));
    }

    public static Status[] testSomeStatus(Request[] requests) throws MPIException {
        MPI.check();
        io.rewind.engine.Request[] e = engineRequests(requests);
        if (noneActive(e)) {
            return null;
        }
        return finishCompleted(requests, e, MPI.engine().decide(e, PollKind.TEST_SOME));
    }

    /** Completes the requests at the given indices (the outcome the engine decided). */
    private static Status[] finishCompleted(Request[] requests, io.rewind.engine.Request[] e, int[] indices)
            throws MPIException {
        int n = indices.length;
        boolean[] done = new boolean[e.length];
        for (int i : indices) {
            done[i] = true;
        }
        Status[] out = new Status[n];
        MPIException first = null;
        int k = 0;
        for (int i = 0; i < e.length; i++) {
            if (!done[i]) {
                continue;
            }
            try {
                out[k++] = requests[i].finishActive().withIndex(i);
            } catch (MPIException ex) {
                out[k - 1] = Status.empty().withIndex(i);
                if (first == null) {
                    first = ex;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    private static int[] indexes(Status[] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] idx = new int[statuses.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = statuses[i].getIndex();
        }
        return idx;
    }
}
