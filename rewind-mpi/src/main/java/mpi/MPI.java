package mpi;

import io.rewind.engine.BaseType;
import io.rewind.engine.Collectives;
import io.rewind.engine.Constants;
import io.rewind.engine.PredefinedOp;
import io.rewind.engine.RankEngine;
import io.rewind.engine.RewindException;
import io.rewind.runtime.rank.RankContext;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The MPI environment: initialisation and finalisation, the predefined communicators, datatypes,
 * operators and constants, timers, and buffer helpers. Static state is per rank (each rank loads this
 * class in its own class loader).
 */
public final class MPI {
    // --- special ranks, tags, results ---------------------------------------------------------------
    public static final int ANY_SOURCE = Constants.ANY_SOURCE;
    public static final int ANY_TAG = Constants.ANY_TAG;
    public static final int PROC_NULL = Constants.PROC_NULL;
    public static final int ROOT = Constants.ROOT;
    public static final int UNDEFINED = Constants.UNDEFINED;

    public static final int THREAD_SINGLE = 0;
    public static final int THREAD_FUNNELED = 1;
    public static final int THREAD_SERIALIZED = 2;
    public static final int THREAD_MULTIPLE = 3;

    public static final int CART = 1;
    public static final int GRAPH = 2;
    public static final int DIST_GRAPH = 3;

    public static final int IDENT = 0;
    public static final int CONGRUENT = 1;
    public static final int SIMILAR = 2;
    public static final int UNEQUAL = 3;

    /** Attribute keys of predefined attributes (for {@code Comm.getAttr}). */
    public static final int TAG_UB = 0;

    public static final int HOST = 1;
    public static final int IO = 2;
    public static final int WTIME_IS_GLOBAL = 3;
    public static final int APPNUM = 4;
    public static final int LASTUSEDCODE = 5;
    public static final int UNIVERSE_SIZE = 6;
    public static final int WIN_BASE = 7;
    public static final int WIN_SIZE = 8;
    public static final int WIN_DISP_UNIT = 9;

    public static final int VERSION = 3;
    public static final int SUBVERSION = 1;
    public static final int KEYVAL_INVALID = -1;
    public static final int BSEND_OVERHEAD = 128;
    public static final int MAX_OBJECT_NAME = 64;
    public static final int MAX_PORT_NAME = 1024;
    public static final int MAX_DATAREP_STRING = 128;
    public static final int MAX_INFO_KEY = 36;
    public static final int MAX_INFO_VAL = 256;
    public static final int ORDER_C = 0;
    public static final int ORDER_FORTRAN = 1;
    public static final int DISTRIBUTE_BLOCK = 0;
    public static final int DISTRIBUTE_CYCLIC = 1;
    public static final int DISTRIBUTE_NONE = 2;
    public static final int DISTRIBUTE_DFLT_DARG = -1;
    public static final int MODE_CREATE = 1;
    public static final int MODE_RDONLY = 2;
    public static final int MODE_WRONLY = 4;
    public static final int MODE_RDWR = 8;
    public static final int MODE_DELETE_ON_CLOSE = 16;
    public static final int MODE_UNIQUE_OPEN = 32;
    public static final int MODE_EXCL = 64;
    public static final int MODE_APPEND = 128;
    public static final int MODE_SEQUENTIAL = 256;
    public static final int DISPLACEMENT_CURRENT = -54278278;
    public static final int SEEK_SET = 600;
    public static final int SEEK_CUR = 602;
    public static final int SEEK_END = 604;
    public static final int MODE_NOCHECK = 1;
    public static final int MODE_NOPRECEDE = 2;
    public static final int MODE_NOPUT = 4;
    public static final int MODE_NOSTORE = 8;
    public static final int MODE_NOSUCCEED = 16;
    public static final int LOCK_EXCLUSIVE = 1;
    public static final int LOCK_SHARED = 2;
    public static final int COMM_TYPE_SHARED = 0;

    // --- error classes (Open MPI's values) ---------------------------------------------------------
    public static final int SUCCESS = 0;
    public static final int ERR_BUFFER = 1;
    public static final int ERR_COUNT = 2;
    public static final int ERR_TYPE = 3;
    public static final int ERR_TAG = 4;
    public static final int ERR_COMM = 5;
    public static final int ERR_RANK = 6;
    public static final int ERR_REQUEST = 7;
    public static final int ERR_ROOT = 8;
    public static final int ERR_GROUP = 9;
    public static final int ERR_OP = 10;
    public static final int ERR_TOPOLOGY = 11;
    public static final int ERR_DIMS = 12;
    public static final int ERR_ARG = 13;
    public static final int ERR_UNKNOWN = 14;
    public static final int ERR_TRUNCATE = 15;
    public static final int ERR_OTHER = 16;
    public static final int ERR_INTERN = 17;
    public static final int ERR_IN_STATUS = 18;
    public static final int ERR_PENDING = 19;
    public static final int ERR_ACCESS = 20;
    public static final int ERR_AMODE = 21;
    public static final int ERR_ASSERT = 22;
    public static final int ERR_BAD_FILE = 23;
    public static final int ERR_BASE = 24;
    public static final int ERR_CONVERSION = 25;
    public static final int ERR_DISP = 26;
    public static final int ERR_DUP_DATAREP = 27;
    public static final int ERR_FILE_EXISTS = 28;
    public static final int ERR_FILE_IN_USE = 29;
    public static final int ERR_FILE = 30;
    public static final int ERR_INFO_KEY = 31;
    public static final int ERR_INFO_NOKEY = 32;
    public static final int ERR_INFO_VALUE = 33;
    public static final int ERR_INFO = 34;
    public static final int ERR_IO = 35;
    public static final int ERR_KEYVAL = 36;
    public static final int ERR_LOCKTYPE = 37;
    public static final int ERR_NAME = 38;
    public static final int ERR_NO_MEM = 39;
    public static final int ERR_NOT_SAME = 40;
    public static final int ERR_NO_SPACE = 41;
    public static final int ERR_NO_SUCH_FILE = 42;
    public static final int ERR_PORT = 43;
    public static final int ERR_QUOTA = 44;
    public static final int ERR_READ_ONLY = 45;
    public static final int ERR_RMA_CONFLICT = 46;
    public static final int ERR_RMA_SYNC = 47;
    public static final int ERR_SERVICE = 48;
    public static final int ERR_SIZE = 49;
    public static final int ERR_SPAWN = 50;
    public static final int ERR_UNSUPPORTED_DATAREP = 51;
    public static final int ERR_UNSUPPORTED_OPERATION = 52;
    public static final int ERR_WIN = 53;
    public static final int ERR_LASTCODE = 92;
    public static final int ERR_SYSRESOURCE = -2;

    // --- handles ---------------------------------------------------------------------------------
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    public static final Errhandler ERRORS_RETURN = new Errhandler(false);

    public static final Datatype DATATYPE_NULL = Datatype.nullType();
    public static final Datatype BYTE = Datatype.predefined("MPI_BYTE", Datatype.BYTE, 1, BaseType.BYTE, 1);
    public static final Datatype CHAR = Datatype.predefined("MPI_CHAR", Datatype.CHAR, 2, BaseType.CHAR, 1);
    public static final Datatype SHORT = Datatype.predefined("MPI_SHORT", Datatype.SHORT, 2, BaseType.SHORT, 1);
    public static final Datatype BOOLEAN = Datatype.predefined("MPI_BOOLEAN", Datatype.BOOLEAN, 1, BaseType.BOOLEAN, 1);
    public static final Datatype INT = Datatype.predefined("MPI_INT", Datatype.INT, 4, BaseType.INT, 1);
    public static final Datatype LONG = Datatype.predefined("MPI_LONG", Datatype.LONG, 8, BaseType.LONG, 1);
    public static final Datatype FLOAT = Datatype.predefined("MPI_FLOAT", Datatype.FLOAT, 4, BaseType.FLOAT, 1);
    public static final Datatype DOUBLE = Datatype.predefined("MPI_DOUBLE", Datatype.DOUBLE, 8, BaseType.DOUBLE, 1);
    public static final Datatype PACKED = Datatype.predefined("MPI_PACKED", Datatype.PACKED, 1, BaseType.PACKED, 1);
    public static final Datatype FLOAT_COMPLEX =
            Datatype.predefined("MPI_FLOAT_COMPLEX", Datatype.FLOAT, 4, BaseType.FLOAT_COMPLEX, 2);
    public static final Datatype DOUBLE_COMPLEX =
            Datatype.predefined("MPI_DOUBLE_COMPLEX", Datatype.DOUBLE, 8, BaseType.DOUBLE_COMPLEX, 2);
    /** (int value, int index) pairs, held in a {@code byte[]} or {@code ByteBuffer}; see {@link #int2}. */
    public static final Datatype INT2 = pairType("MPI_2INT", BaseType.INT2);

    public static final Datatype SHORT_INT = pairType("MPI_SHORT_INT", BaseType.SHORT_INT);
    public static final Datatype LONG_INT = pairType("MPI_LONG_INT", BaseType.LONG_INT);
    public static final Datatype FLOAT_INT = pairType("MPI_FLOAT_INT", BaseType.FLOAT_INT);
    public static final Datatype DOUBLE_INT = pairType("MPI_DOUBLE_INT", BaseType.DOUBLE_INT);

    public static final Int2 int2 = new Int2(4, 4);
    public static final ShortInt shortInt = new ShortInt(2, 4, 4);
    public static final LongInt longInt = new LongInt(8, 8, 4);
    public static final FloatInt floatInt = new FloatInt(4, 4);
    public static final DoubleInt doubleInt = new DoubleInt(8, 4);

    public static final Op MAX = new Op(PredefinedOp.MAX);
    public static final Op MIN = new Op(PredefinedOp.MIN);
    public static final Op SUM = new Op(PredefinedOp.SUM);
    public static final Op PROD = new Op(PredefinedOp.PROD);
    public static final Op LAND = new Op(PredefinedOp.LAND);
    public static final Op BAND = new Op(PredefinedOp.BAND);
    public static final Op LOR = new Op(PredefinedOp.LOR);
    public static final Op BOR = new Op(PredefinedOp.BOR);
    public static final Op LXOR = new Op(PredefinedOp.LXOR);
    public static final Op BXOR = new Op(PredefinedOp.BXOR);
    public static final Op MINLOC = new Op(PredefinedOp.MINLOC);
    public static final Op MAXLOC = new Op(PredefinedOp.MAXLOC);
    public static final Op REPLACE = new Op(PredefinedOp.REPLACE);
    public static final Op NO_OP = new Op(PredefinedOp.NO_OP);

    public static final Intracomm COMM_WORLD = new Intracomm();
    public static final Intracomm COMM_SELF = new Intracomm();
    public static final Group GROUP_EMPTY = new Group(new int[0]);
    public static final Request REQUEST_NULL = Request.nullRequest();
    public static final Info INFO_NULL = new Info((Map<String, String>) null);
    public static final Info INFO_ENV = new Info(new LinkedHashMap<>(Map.of("host", "localhost")));

    private static volatile boolean initialized;
    private static volatile boolean finalized;
    private static volatile RankEngine engine;
    private static int threadLevel = THREAD_SINGLE;
    private static Thread mainThread;
    private static byte[] attachedBuffer;

    private MPI() {}

    private static Datatype pairType(String name, BaseType pair) {
        return Datatype.predefined(name, Datatype.BYTE, 1, pair, pair.sizeBytes());
    }

    // --- initialisation --------------------------------------------------------------------------

    public static String[] Init(String[] args) throws MPIException {
        initialize(THREAD_SINGLE);
        return args;
    }

    /** Provides the level asked for: the engine's queues and request completion are thread-safe. */
    public static int InitThread(String[] args, int required) throws MPIException {
        if (required < THREAD_SINGLE || required > THREAD_MULTIPLE) {
            throw Failures.error(ERR_ARG, "invalid thread level " + required);
        }
        initialize(required);
        return required;
    }

    private static synchronized void initialize(int level) throws MPIException {
        if (initialized) {
            throw Failures.error(
                    ERR_OTHER,
                    finalized ? "MPI was finalized and cannot be initialized again" : "MPI is already initialized");
        }
        RankContext ctx = RankContext.of(MPI.class);
        RankEngine e = ctx.engine();
        COMM_WORLD.bindPredefined(e.world(), "MPI_COMM_WORLD");
        COMM_SELF.bindPredefined(e.self(), "MPI_COMM_SELF");
        engine = e;
        threadLevel = level;
        mainThread = Thread.currentThread();
        initialized = true;
        ctx.markInitialized();
    }

    public static int queryThread() throws MPIException {
        check();
        return threadLevel;
    }

    public static boolean isThreadMain() throws MPIException {
        check();
        return Thread.currentThread() == mainThread;
    }

    /** Ends MPI: a barrier over {@code COMM_WORLD} (so no rank leaves while others still talk to it), then no more calls. */
    public static void Finalize() throws MPIException {
        check();
        try {
            RankContext context = RankContext.of(MPI.class);
            if (context.reportsFailures()) {
                // Ranks may have failed and the world may be revoked: the survivors meet in an agreement,
                // which neither failures nor a revocation stop, instead of a barrier.
                context.failureCall(io.rewind.engine.FailureDecision.Kind.AGREE, COMM_WORLD.comm(), 1)
                        .await();
            } else {
                COMM_WORLD.comm().awaitCollectives();
                Collectives.barrier(COMM_WORLD.comm(), COMM_WORLD.comm().reserveCollectiveTag());
            }
        } catch (RewindException e) {
            throw Failures.convertOrRethrow(e);
        }
        finalized = true;
        RankContext.of(MPI.class).markFinalized();
    }

    public static boolean isInitialized() throws MPIException {
        return initialized;
    }

    public static boolean isFinalized() throws MPIException {
        return finalized;
    }

    /** Throws unless MPI is initialised and not yet finalised. */
    static void check() throws MPIException {
        if (!initialized) {
            throw Failures.error(ERR_OTHER, "MPI is not initialized: call MPI.Init first");
        }
        if (finalized) {
            throw Failures.error(ERR_OTHER, "MPI is finalized: no MPI call is allowed after MPI.Finalize");
        }
    }

    static RankEngine engine() {
        return engine;
    }

    // --- environment -----------------------------------------------------------------------------

    /** Seconds since an arbitrary time in the past. */
    public static double wtime() throws MPIException {
        check();
        return System.nanoTime() / 1e9;
    }

    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /**
     * The version of the MPI standard the bindings follow ({@code MPI_GET_VERSION}): 3.1. Like
     * {@code MPI_Get_version}, callable before {@code Init} and after {@code Finalize}.
     */
    public static Version getVersion() {
        return new Version(3, 1);
    }

    /** A description of the library ({@code MPI_GET_LIBRARY_VERSION}); callable at any time. */
    public static String getLibVersion() {
        return "Rewind MPI (Open MPI Java bindings API, MPI 3.1)";
    }

    public static String getProcessorName() throws MPIException {
        check();
        return RankContext.of(MPI.class).processorName();
    }

    /** Keeps the buffer; buffered sends copy their payload out at once, so it is never filled. */
    public static void attachBuffer(byte[] buffer) throws MPIException {
        check();
        if (attachedBuffer != null) {
            throw Failures.error(ERR_BUFFER, "a buffer is already attached");
        }
        attachedBuffer = buffer;
    }

    public static byte[] detachBuffer() throws MPIException {
        check();
        byte[] b = attachedBuffer;
        attachedBuffer = null;
        return b;
    }

    public static void pControl(int level, Object obj) {
        // Profiling control has no effect.
    }

    // --- buffers ---------------------------------------------------------------------------------

    public static ByteBuffer newByteBuffer(int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    public static CharBuffer newCharBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asCharBuffer();
    }

    public static ShortBuffer newShortBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 2)).asShortBuffer();
    }

    public static IntBuffer newIntBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asIntBuffer();
    }

    public static LongBuffer newLongBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asLongBuffer();
    }

    public static FloatBuffer newFloatBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 4)).asFloatBuffer();
    }

    public static DoubleBuffer newDoubleBuffer(int capacity) {
        return newByteBuffer(Math.multiplyExact(capacity, 8)).asDoubleBuffer();
    }

    /**
     * A buffer sharing {@code buf}'s content from index {@code offset} to its limit. Unlike Open MPI's,
     * {@code buf}'s position is left unchanged.
     */
    public static ByteBuffer slice(ByteBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset).order(buf.order());
    }

    public static CharBuffer slice(CharBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static ShortBuffer slice(ShortBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static IntBuffer slice(IntBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static LongBuffer slice(LongBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static FloatBuffer slice(FloatBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static DoubleBuffer slice(DoubleBuffer buf, int offset) {
        return buf.slice(offset, buf.limit() - offset);
    }

    public static ByteBuffer slice(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    public static CharBuffer slice(char[] buf, int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static ShortBuffer slice(short[] buf, int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static IntBuffer slice(int[] buf, int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static LongBuffer slice(long[] buf, int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static FloatBuffer slice(float[] buf, int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    public static DoubleBuffer slice(double[] buf, int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
