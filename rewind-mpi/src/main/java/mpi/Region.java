package mpi;

import java.lang.foreign.MemorySegment;

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

    /**
     * {@code send}, or a copy of it when it shares memory with {@code recv} (null: either absent). MPI
     * calls one buffer given as both the send and the receive buffer of an operation erroneous, yet
     * programs do it, and Open MPI's Java bindings copy array arguments in and out, so there such a
     * program gets a well-defined result. Here the send side is read while the receive side is
     * written, so without the copy the result would depend on timing; with it, it is Open MPI's.
     */
    static Region apart(Region send, Region recv) {
        if (send == null || recv == null || send.bytes == 0 || recv.bytes == 0) {
            return send;
        }
        // A dense region's segment runs on to the buffer's end: compare only the bytes each one uses.
        if (send.segment
                .asSlice(0, send.bytes)
                .asOverlappingSlice(recv.segment.asSlice(0, recv.bytes))
                .isEmpty()) {
            return send;
        }
        MemorySegment copy = MemorySegment.ofArray(new byte[Math.toIntExact(send.bytes)]);
        MemorySegment.copy(send.segment, 0, copy, 0, send.bytes);
        return new Region(copy, send.bytes, null);
    }

    /** {@link #apart} for one send region and several receive regions. */
    static Region apart(Region send, Region... recvs) {
        Region s = send;
        for (Region r : recvs) {
            s = apart(s, r);
        }
        return s;
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
        Memory memory = Memory.of(buf, writes, what);
        checkBounds(memory, buf, count, type, what);
        long bytes = Math.multiplyExact(count, type.sizeBytes());
        Runnable back = writes ? memory.writeBack() : null;
        MemorySegment raw = memory.segment();
        long origin = memory.origin();
        if (type.isDense()) {
            return new Region(origin == 0 ? raw : raw.asSlice(origin), bytes, back);
        }
        MemorySegment staged = MemorySegment.ofArray(new byte[Math.toIntExact(bytes)]);
        // Packed even for receives: a shorter message then leaves the rest of the buffer as it was.
        type.pack(raw, origin, count, staged, 0);
        if (!writes) {
            return new Region(staged, bytes, null);
        }
        return new Region(staged, bytes, () -> {
            type.unpack(staged, 0, raw, origin, count);
            if (back != null) {
                back.run();
            }
        });
    }

    /**
     * Refuses a count whose items would touch memory outside the buffer: past its end (the count
     * does not fit, ERR_COUNT) or before its start (negative displacements or strides reaching
     * further back than the buffer goes, ERR_BUFFER).
     */
    private static void checkBounds(Memory memory, Object buf, long count, Datatype type, String what)
            throws MPIException {
        long low = memory.origin() + type.lowestByte(count);
        long high = memory.origin() + type.highestByte(count);
        if (high > memory.segment().byteSize()) {
            throw Failures.error(
                    MPI.ERR_COUNT,
                    String.format(
                            "%s too small: %d items of %s reach byte %d, the %s holds %d bytes",
                            what,
                            count,
                            type,
                            high - memory.origin(),
                            describe(buf),
                            memory.segment().byteSize() - memory.origin()));
        }
        if (low < 0) {
            throw Failures.error(
                    MPI.ERR_BUFFER,
                    String.format(
                            "%d items of %s reach %d bytes before the start of the %s, which has only %d bytes before"
                                    + " it",
                            count, type, -type.lowestByte(count), what, memory.origin()));
        }
    }

    static String describe(Object buf) {
        return buf.getClass().isArray()
                ? buf.getClass().getComponentType().getSimpleName() + "[]"
                : buf.getClass().getSimpleName();
    }
}
