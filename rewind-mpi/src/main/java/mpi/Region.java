package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;

/**
 * {@code count} items of a datatype in a program's buffer, as the engine sees them: a segment, a
 * byte offset and a length. Arrays and NIO buffers (heap or direct) are used in place when the
 * datatype is dense; otherwise the items are packed into a contiguous temporary, and unpacked back
 * into the program's buffer by {@link #finish()} once the operation has completed.
 *
 * <p>As in Open MPI, the data of an NIO buffer starts at the buffer's index 0 whatever its position
 * ({@code MPI.slice(buf, offset)} is how a program starts further in), and an array's data starts at
 * its index 0.
 */
final class Region {
    /** How the operation uses the buffer. */
    enum Use {
        READ,
        WRITE,
        READ_WRITE
    }

    static final Region EMPTY = new Region(MemorySegment.NULL, 0, null);

    final MemorySegment segment;
    final long bytes;
    private Runnable finisher;

    private Region(MemorySegment segment, long bytes, Runnable finisher) {
        this.segment = segment;
        this.bytes = bytes;
        this.finisher = finisher;
    }

    /** Copies staged data back into the program's buffer; runs at most once. */
    void finish() {
        Runnable f = finisher;
        if (f != null) {
            finisher = null;
            f.run();
        }
    }

    static void finishAll(Region... regions) {
        for (Region r : regions) {
            if (r != null) {
                r.finish();
            }
        }
    }

    static Region of(Object buf, long count, Datatype type, Use use, String what) throws MPIException {
        if (count < 0) {
            throw Failures.error(MPI.ERR_COUNT, "negative count " + count + " for the " + what);
        }
        if (type == null) {
            throw Failures.error(MPI.ERR_TYPE, "null datatype for the " + what);
        }
        type.checkUsable();
        if (count == 0 || type.sizeBytes() == 0) {
            return EMPTY;
        }
        if (buf == null) {
            throw Failures.error(MPI.ERR_BUFFER, "null " + what + " for " + count + " items of " + type);
        }
        boolean writes = use != Use.READ;
        Runnable[] writeBack = new Runnable[1];
        MemorySegment raw = raw(buf, type, writes, writeBack, what);
        long span = type.spanBytes(count);
        if (span > raw.byteSize()) {
            throw Failures.error(
                    MPI.ERR_COUNT,
                    String.format(
                            "%s too small: %d items of %s need %d bytes, the %s holds %d",
                            what, count, type, span, describe(buf), raw.byteSize()));
        }
        long bytes = Math.multiplyExact(count, type.sizeBytes());
        Runnable back = writes ? writeBack[0] : null;
        if (type.isDense()) {
            return new Region(raw, bytes, back);
        }
        MemorySegment staged = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        // Packed even for receives: a shorter message then leaves the rest of the buffer as it was.
        type.pack(raw, count, staged, 0);
        if (!writes) {
            return new Region(staged, bytes, null);
        }
        return new Region(staged, bytes, () -> {
            type.unpack(staged, 0, raw, count);
            if (back != null) {
                back.run();
            }
        });
    }

    private static String describe(Object buf) {
        return buf.getClass().isArray()
                ? buf.getClass().getComponentType().getSimpleName() + "[]"
                : buf.getClass().getSimpleName();
    }

    private static MemorySegment raw(Object buf, Datatype type, boolean writes, Runnable[] writeBack, String what)
            throws MPIException {
        return switch (buf) {
            case byte[] a -> {
                expect(type, Datatype.BYTE, a, what);
                yield MemorySegment.ofArray(a);
            }
            case char[] a -> {
                expect(type, Datatype.CHAR, a, what);
                yield MemorySegment.ofArray(a);
            }
            case short[] a -> {
                expect(type, Datatype.SHORT, a, what);
                yield MemorySegment.ofArray(a);
            }
            case int[] a -> {
                expect(type, Datatype.INT, a, what);
                yield MemorySegment.ofArray(a);
            }
            case long[] a -> {
                expect(type, Datatype.LONG, a, what);
                yield MemorySegment.ofArray(a);
            }
            case float[] a -> {
                expect(type, Datatype.FLOAT, a, what);
                yield MemorySegment.ofArray(a);
            }
            case double[] a -> {
                expect(type, Datatype.DOUBLE, a, what);
                yield MemorySegment.ofArray(a);
            }
            case boolean[] a -> {
                expect(type, Datatype.BOOLEAN, a, what);
                byte[] copy = new byte[a.length];
                for (int i = 0; i < a.length; i++) {
                    copy[i] = (byte) (a[i] ? 1 : 0);
                }
                writeBack[0] = () -> {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = copy[i] != 0;
                    }
                };
                yield MemorySegment.ofArray(copy);
            }
            case Buffer b -> {
                if (writes && b.isReadOnly()) {
                    throw Failures.error(MPI.ERR_BUFFER, "the " + what + " is a read-only buffer");
                }
                yield MemorySegment.ofBuffer(b.duplicate().clear());
            }
            default -> throw Failures.error(
                    MPI.ERR_BUFFER,
                    "unsupported " + what + " of class " + buf.getClass().getName()
                            + " (use a primitive array or an NIO buffer)");
        };
    }

    private static void expect(Datatype type, int baseType, Object array, String what) throws MPIException {
        int actual = type.baseType == Datatype.PACKED ? Datatype.BYTE : type.baseType;
        if (actual != baseType) {
            throw Failures.error(
                    MPI.ERR_TYPE,
                    "the " + what + " is a " + describe(array) + " but the datatype is " + type
                            + " (its items live in a " + arrayFor(actual) + ")");
        }
    }

    private static String arrayFor(int baseType) {
        return switch (baseType) {
            case Datatype.BYTE -> "byte[]";
            case Datatype.CHAR -> "char[]";
            case Datatype.SHORT -> "short[]";
            case Datatype.BOOLEAN -> "boolean[]";
            case Datatype.INT -> "int[]";
            case Datatype.LONG -> "long[]";
            case Datatype.FLOAT -> "float[]";
            case Datatype.DOUBLE -> "double[]";
            default -> "buffer";
        };
    }
}
