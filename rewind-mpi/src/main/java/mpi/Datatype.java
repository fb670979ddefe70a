package mpi;

import io.rewind.engine.BaseType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * A datatype: a base type (the element type of the Java array or buffer that holds the data) and a
 * type map of blocks, in units of base elements, as Open MPI's Java bindings count them. Derived
 * datatypes that are not one dense block are packed into a contiguous temporary to be sent and
 * unpacked after they are received.
 */
public final class Datatype implements Freeable, Cloneable {
    static final int NULL = 0;
    static final int BYTE = 1;
    static final int CHAR = 2;
    static final int SHORT = 3;
    static final int BOOLEAN = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int PACKED = 9;

    /** Element type of the buffer (one of the codes above; pair types use BYTE, complex types their part). */
    final int baseType;
    /** Bytes per buffer element. */
    final int baseSize;
    /** The element type reductions combine. */
    final BaseType engineType;

    private final int[] blockDisp;
    private final int[] blockLen;
    private final int lb;
    private final int extent;
    private final int size;
    private final boolean predefined;
    private boolean committed;
    private boolean freed;
    private String name;

    private Datatype(
            int baseType,
            int baseSize,
            BaseType engineType,
            int[] disp,
            int[] len,
            int lb,
            int extent,
            boolean predefined,
            String name) {
        this.baseType = baseType;
        this.baseSize = baseSize;
        this.engineType = engineType;
        this.blockDisp = disp;
        this.blockLen = len;
        this.lb = lb;
        this.extent = extent;
        int s = 0;
        for (int l : len) {
            s += l;
        }
        this.size = s;
        this.predefined = predefined;
        this.committed = predefined;
        this.name = name;
    }

    /** A predefined type of {@code elements} base elements per item. */
    static Datatype predefined(String name, int baseType, int baseSize, BaseType engineType, int elements) {
        return new Datatype(
                baseType, baseSize, engineType, new int[] {0}, new int[] {elements}, 0, elements, true, name);
    }

    /** The committed type of a {@link Struct}: {@code extent} opaque bytes. */
    static Datatype structOf(String name, int extent) {
        Datatype t = new Datatype(BYTE, 1, BaseType.BYTE, new int[] {0}, new int[] {extent}, 0, extent, false, name);
        t.committed = true;
        return t;
    }

    static Datatype nullType() {
        Datatype t = new Datatype(NULL, 1, BaseType.BYTE, new int[0], new int[0], 0, 0, true, "MPI_DATATYPE_NULL");
        t.freed = true;
        return t;
    }

    /** Checks that the type may be used for communication. */
    Datatype checkUsable() throws MPIException {
        if (freed || baseType == NULL) {
            throw Failures.error(MPI.ERR_TYPE, "datatype " + name + " is null or was freed");
        }
        if (!committed) {
            throw Failures.error(MPI.ERR_TYPE, "datatype " + name + " was not committed");
        }
        return this;
    }

    long sizeBytes() {
        return (long) size * baseSize;
    }

    long extentBytes() {
        return (long) extent * baseSize;
    }

    /** Bytes of buffer that {@code count} items touch, from the buffer's start. */
    long spanBytes(long count) {
        if (count <= 0 || blockDisp.length == 0) {
            return 0;
        }
        int hi = 0;
        for (int i = 0; i < blockDisp.length; i++) {
            hi = Math.max(hi, blockDisp[i] + blockLen[i]);
        }
        return ((count - 1) * extent + hi) * baseSize;
    }

    /** Whether items are laid out back to back with no gaps, so the buffer can be used as is. */
    boolean isDense() {
        return blockDisp.length == 1 && blockDisp[0] == 0 && blockLen[0] == extent;
    }

    /** Basic elements in {@code bytes} of packed data. */
    long elementsIn(long bytes) {
        if (engineType.kind() == BaseType.Kind.PAIR) {
            return bytes / engineType.sizeBytes() * 2;
        }
        if (engineType.kind() == BaseType.Kind.COMPLEX) {
            return bytes / (engineType.sizeBytes() / 2);
        }
        return bytes / baseSize;
    }

    /** Engine reduction count for {@code count} items. */
    int engineCount(int count) throws MPIException {
        long bytes = count * sizeBytes();
        if (bytes % engineType.sizeBytes() != 0) {
            throw Failures.error(MPI.ERR_TYPE, "datatype " + name + " is not a whole number of " + engineType);
        }
        return Math.toIntExact(bytes / engineType.sizeBytes());
    }

    /** Copies {@code count} items from {@code src} (laid out by this type) into {@code dst}, densely. */
    void pack(MemorySegment src, long count, MemorySegment dst, long dstOffset) {
        long pos = dstOffset;
        for (long i = 0; i < count; i++) {
            long base = i * extent;
            for (int b = 0; b < blockDisp.length; b++) {
                long n = (long) blockLen[b] * baseSize;
                if (n > 0) {
                    MemorySegment.copy(src, (base + blockDisp[b]) * baseSize, dst, pos, n);
                }
                pos += n;
            }
        }
    }

    /** The inverse of {@link #pack}. */
    void unpack(MemorySegment src, long srcOffset, MemorySegment dst, long count) {
        long pos = srcOffset;
        for (long i = 0; i < count; i++) {
            long base = i * extent;
            for (int b = 0; b < blockDisp.length; b++) {
                long n = (long) blockLen[b] * baseSize;
                if (n > 0) {
                    MemorySegment.copy(src, pos, dst, (base + blockDisp[b]) * baseSize, n);
                }
                pos += n;
            }
        }
    }

    // --- public API ---------------------------------------------------------------------------------

    public int getLb() throws MPIException {
        MPI.check();
        return lb;
    }

    public int getExtent() throws MPIException {
        MPI.check();
        return extent;
    }

    public int getTrueLb() throws MPIException {
        MPI.check();
        int lo = Integer.MAX_VALUE;
        for (int d : blockDisp) {
            lo = Math.min(lo, d);
        }
        return blockDisp.length == 0 ? 0 : lo;
    }

    public int getTrueExtent() throws MPIException {
        MPI.check();
        return (int) (spanBytes(1) / baseSize) - getTrueLb();
    }

    /** Number of base elements one item holds. */
    public int getSize() throws MPIException {
        MPI.check();
        return size;
    }

    public void commit() throws MPIException {
        MPI.check();
        if (freed) {
            throw Failures.error(MPI.ERR_TYPE, "cannot commit freed datatype " + name);
        }
        committed = true;
    }

    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw Failures.error(MPI.ERR_TYPE, "cannot free predefined datatype " + name);
        }
        freed = true;
    }

    public boolean isNull() {
        return baseType == NULL || freed;
    }

    @Override
    public Datatype clone() {
        return copy();
    }

    public Datatype dup() throws MPIException {
        MPI.check();
        return copy();
    }

    private Datatype copy() {
        Datatype t = new Datatype(baseType, baseSize, engineType, blockDisp, blockLen, lb, extent, false, name);
        t.committed = committed;
        t.freed = freed;
        return t;
    }

    public void setName(String name) throws MPIException {
        MPI.check();
        this.name = name;
    }

    public String getName() throws MPIException {
        MPI.check();
        return name;
    }

    @Override
    public String toString() {
        return name;
    }

    // --- constructors of derived types ---------------------------------------------------------------

    private static Datatype derive(Datatype old, List<int[]> blocks, int lb, int extent, String name)
            throws MPIException {
        MPI.check();
        if (old.isNull()) {
            throw Failures.error(MPI.ERR_TYPE, "old datatype is null or freed");
        }
        List<int[]> merged = new ArrayList<>();
        for (int[] b : blocks) {
            if (b[1] == 0) {
                continue;
            }
            if (b[0] < 0) {
                throw Failures.error(MPI.ERR_TYPE, "negative displacements are not supported (" + name + ")");
            }
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && last[0] + last[1] == b[0]) {
                last[1] += b[1];
            } else {
                merged.add(new int[] {b[0], b[1]});
            }
        }
        int[] disp = new int[merged.size()];
        int[] len = new int[merged.size()];
        for (int i = 0; i < disp.length; i++) {
            disp[i] = merged.get(i)[0];
            len[i] = merged.get(i)[1];
        }
        return new Datatype(old.baseType, old.baseSize, old.engineType, disp, len, lb, extent, false, name);
    }

    /** Adds {@code copies} consecutive items of {@code old} starting at {@code at} (base elements). */
    private static void addItems(List<int[]> blocks, Datatype old, long at, int copies) {
        for (int c = 0; c < copies; c++) {
            long base = at + (long) c * old.extent;
            for (int b = 0; b < old.blockDisp.length; b++) {
                blocks.add(new int[] {Math.toIntExact(base + old.blockDisp[b]), old.blockLen[b]});
            }
        }
    }

    private static void checkCount(int count, String what) throws MPIException {
        if (count < 0) {
            throw Failures.error(MPI.ERR_COUNT, "negative " + what + " " + count);
        }
    }

    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        checkCount(count, "count");
        List<int[]> blocks = new ArrayList<>();
        addItems(blocks, oldType, 0, count);
        return derive(oldType, blocks, 0, count * oldType.extent, "contiguous(" + count + ", " + oldType + ")");
    }

    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkCount(count, "count");
        checkCount(blockLength, "block length");
        List<int[]> blocks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            addItems(blocks, oldType, (long) i * stride * oldType.extent, blockLength);
        }
        int ext = count == 0 ? 0 : ((count - 1) * stride + blockLength) * oldType.extent;
        return derive(
                oldType, blocks, 0, ext, "vector(" + count + ", " + blockLength + ", " + stride + ", " + oldType + ")");
    }

    /** As {@link #createVector}, with the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkCount(count, "count");
        checkCount(blockLength, "block length");
        if (stride % oldType.baseSize != 0) {
            throw Failures.error(MPI.ERR_ARG, "stride " + stride + " is not a multiple of the base size");
        }
        int strideElems = stride / oldType.baseSize;
        List<int[]> blocks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            addItems(blocks, oldType, (long) i * strideElems, blockLength);
        }
        int ext = count == 0 ? 0 : (count - 1) * strideElems + blockLength * oldType.extent;
        return derive(
                oldType,
                blocks,
                0,
                ext,
                "hvector(" + count + ", " + blockLength + ", " + stride + ", " + oldType + ")");
    }

    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        return indexed(blockLengths, displacements, oldType, oldType.extent, "indexed");
    }

    /** As {@link #createIndexed}, with displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        for (int d : displacements) {
            if (d % oldType.baseSize != 0) {
                throw Failures.error(MPI.ERR_ARG, "displacement " + d + " is not a multiple of the base size");
            }
        }
        int[] elems = new int[displacements.length];
        for (int i = 0; i < elems.length; i++) {
            elems[i] = displacements[i] / oldType.baseSize;
        }
        return indexed(blockLengths, elems, oldType, 1, "hindexed");
    }

    private static Datatype indexed(int[] lengths, int[] displs, Datatype old, int unit, String kind)
            throws MPIException {
        if (lengths.length != displs.length) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    kind + ": " + lengths.length + " block lengths but " + displs.length + " displacements");
        }
        List<int[]> blocks = new ArrayList<>();
        int hi = 0;
        for (int i = 0; i < lengths.length; i++) {
            checkCount(lengths[i], "block length");
            addItems(blocks, old, (long) displs[i] * unit, lengths[i]);
            hi = Math.max(hi, displs[i] * unit + lengths[i] * old.extent);
        }
        return derive(old, blocks, 0, hi, kind + "(" + lengths.length + " blocks, " + old + ")");
    }

    /**
     * A struct of blocks of different types at byte displacements. The result's base type is
     * {@code MPI.BYTE} (the data lives in a {@code byte[]} or {@code ByteBuffer}); the extent is padded to
     * the largest alignment among the member types, as C does.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        MPI.check();
        if (blockLengths.length != displacements.length || blockLengths.length != types.length) {
            throw Failures.error(MPI.ERR_ARG, "createStruct needs as many block lengths, displacements and types");
        }
        List<int[]> blocks = new ArrayList<>();
        int hi = 0;
        int align = 1;
        for (int i = 0; i < types.length; i++) {
            Datatype t = types[i];
            if (t == null || t.isNull()) {
                throw Failures.error(MPI.ERR_TYPE, "struct member " + i + " has a null datatype");
            }
            checkCount(blockLengths[i], "block length");
            for (int c = 0; c < blockLengths[i]; c++) {
                long base = displacements[i] + (long) c * t.extentBytes();
                for (int b = 0; b < t.blockDisp.length; b++) {
                    blocks.add(new int[] {
                        Math.toIntExact(base + (long) t.blockDisp[b] * t.baseSize), t.blockLen[b] * t.baseSize
                    });
                }
            }
            hi = Math.max(hi, displacements[i] + blockLengths[i] * (int) t.extentBytes());
            align = Math.max(align, t.engineType.kind() == BaseType.Kind.PAIR ? 8 : t.baseSize);
        }
        int ext = (hi + align - 1) / align * align;
        Datatype bytes = MPI.BYTE;
        return derive(bytes, blocks, 0, ext, "struct(" + types.length + " blocks)");
    }

    /** A copy of {@code oldType} with a new lower bound and extent, both in bytes. */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        MPI.check();
        if (lb % oldType.baseSize != 0 || extent % oldType.baseSize != 0) {
            throw Failures.error(MPI.ERR_ARG, "lb and extent must be multiples of the base size");
        }
        if (lb != 0) {
            throw Failures.error(MPI.ERR_UNSUPPORTED_OPERATION, "a non-zero lower bound is not supported");
        }
        List<int[]> blocks = new ArrayList<>();
        addItems(blocks, oldType, 0, 1);
        return derive(oldType, blocks, 0, extent / oldType.baseSize, "resized(" + oldType + ")");
    }
}
