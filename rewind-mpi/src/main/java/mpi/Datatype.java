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
    /** Attributes the program caches on the datatype ({@code MPI_Type_set_attr}); null until the first. */
    private java.util.Map<Integer, Object> attributes;

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

    /**
     * The lowest byte {@code count} items touch, relative to the buffer's start (displacement 0):
     * negative when a displacement or a stride is negative.
     */
    long lowestByte(long count) {
        if (count <= 0 || blockDisp.length == 0) {
            return 0;
        }
        return (trueLb() + Math.min(0, (count - 1) * extent)) * baseSize;
    }

    /** One past the highest byte {@code count} items touch, relative to the buffer's start. */
    long highestByte(long count) {
        if (count <= 0 || blockDisp.length == 0) {
            return 0;
        }
        return (trueUb() + Math.max(0, (count - 1) * extent)) * baseSize;
    }

    private long trueLb() {
        long lo = Long.MAX_VALUE;
        for (int d : blockDisp) {
            lo = Math.min(lo, d);
        }
        return blockDisp.length == 0 ? 0 : lo;
    }

    private long trueUb() {
        long hi = Long.MIN_VALUE;
        for (int i = 0; i < blockDisp.length; i++) {
            hi = Math.max(hi, (long) blockDisp[i] + blockLen[i]);
        }
        return blockDisp.length == 0 ? 0 : hi;
    }

    /** Whether items are laid out back to back with no gaps, so the buffer can be used as is. */
    boolean isDense() {
        return blockDisp.length == 1 && blockDisp[0] == 0 && blockLen[0] == extent;
    }

    /**
     * Basic elements in {@code bytes} of packed data, or {@code MPI.UNDEFINED} when the bytes end
     * inside a basic element. A MINLOC/MAXLOC pair holds two basic elements (its value and its index);
     * a complex number is one, being a predefined type of its own.
     */
    long elementsIn(long bytes) {
        if (engineType.kind() == BaseType.Kind.COMPLEX) {
            return bytes % engineType.sizeBytes() == 0 ? bytes / engineType.sizeBytes() : MPI.UNDEFINED;
        }
        if (engineType.kind() == BaseType.Kind.PAIR) {
            long pairs = bytes / engineType.sizeBytes();
            long rest = bytes % engineType.sizeBytes();
            long partial;
            if (rest == 0) {
                partial = 0;
            } else if (rest == engineType.pairValueBytes()) {
                partial = 1;
            } else if (rest == engineType.pairIndexOffset() + 4) {
                partial = 2;
            } else {
                return MPI.UNDEFINED;
            }
            return pairs * 2 + partial;
        }
        return bytes % baseSize == 0 ? bytes / baseSize : MPI.UNDEFINED;
    }

    /** The bytes that hold {@code elements} basic elements: the inverse of {@link #elementsIn}. */
    long bytesOfElements(long elements) {
        if (engineType.kind() == BaseType.Kind.PAIR) {
            return elements / 2 * engineType.sizeBytes() + (elements % 2) * engineType.pairValueBytes();
        }
        if (engineType.kind() == BaseType.Kind.COMPLEX) {
            return elements * engineType.sizeBytes();
        }
        return elements * baseSize;
    }

    /** Engine reduction count for {@code count} items. */
    int engineCount(int count) throws MPIException {
        long bytes = count * sizeBytes();
        if (bytes % engineType.sizeBytes() != 0) {
            throw Failures.error(MPI.ERR_TYPE, "datatype " + name + " is not a whole number of " + engineType);
        }
        return Math.toIntExact(bytes / engineType.sizeBytes());
    }

    /**
     * Copies {@code count} items from {@code src}, laid out by this type from byte {@code origin} on,
     * densely into {@code dst}.
     */
    void pack(MemorySegment src, long origin, long count, MemorySegment dst, long dstOffset) {
        long pos = dstOffset;
        for (long i = 0; i < count; i++) {
            long base = i * extent;
            for (int b = 0; b < blockDisp.length; b++) {
                long n = (long) blockLen[b] * baseSize;
                if (n > 0) {
                    MemorySegment.copy(src, origin + (base + blockDisp[b]) * baseSize, dst, pos, n);
                }
                pos += n;
            }
        }
    }

    /** The inverse of {@link #pack}. */
    void unpack(MemorySegment src, long srcOffset, MemorySegment dst, long origin, long count) {
        long pos = srcOffset;
        for (long i = 0; i < count; i++) {
            long base = i * extent;
            for (int b = 0; b < blockDisp.length; b++) {
                long n = (long) blockLen[b] * baseSize;
                if (n > 0) {
                    MemorySegment.copy(src, pos, dst, origin + (base + blockDisp[b]) * baseSize, n);
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
        return (int) trueLb();
    }

    public int getTrueExtent() throws MPIException {
        MPI.check();
        return (int) (trueUb() - trueLb());
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

    // --- attributes: keys come from the same sequence as communicators' ------------------------------

    public static int createKeyval() throws MPIException {
        return Comm.createKeyval();
    }

    public static void freeKeyval(int keyval) throws MPIException {
        Comm.freeKeyval(keyval);
    }

    public void setAttr(int keyval, Object value) throws MPIException {
        MPI.check();
        if (attributes == null) {
            attributes = new java.util.HashMap<>();
        }
        attributes.put(keyval, value);
    }

    /** The attribute cached under {@code keyval}, or null if there is none. */
    public Object getAttr(int keyval) throws MPIException {
        MPI.check();
        return attributes == null ? null : attributes.get(keyval);
    }

    public void deleteAttr(int keyval) throws MPIException {
        MPI.check();
        if (attributes != null) {
            attributes.remove(keyval);
        }
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

    /**
     * A derived type's type map under construction: its blocks in type-map order (the order items are
     * packed in) and its lower and upper bounds, in base elements of the result. The bounds follow the
     * standard: the lowest lower bound and the highest upper bound of the items placed, 0 and 0 when
     * none is.
     */
    private static final class TypeMap {
        private final List<int[]> blocks = new ArrayList<>();
        private long lb = Long.MAX_VALUE;
        private long ub = Long.MIN_VALUE;

        /** Places {@code copies} consecutive items of {@code old} from {@code at} (old's base elements). */
        void addItems(Datatype old, long at, int copies) throws MPIException {
            for (int c = 0; c < copies; c++) {
                long base = at + (long) c * old.extent;
                for (int b = 0; b < old.blockDisp.length; b++) {
                    add(base + old.blockDisp[b], old.blockLen[b]);
                }
                bound(base + old.lb, base + old.lb + old.extent);
            }
        }

        /** Places {@code copies} items of {@code member}, in bytes, for a struct (whose base is bytes). */
        void addBytes(Datatype member, long at, int copies) throws MPIException {
            long size = member.baseSize;
            for (int c = 0; c < copies; c++) {
                long base = at + c * member.extentBytes();
                for (int b = 0; b < member.blockDisp.length; b++) {
                    add(base + member.blockDisp[b] * size, Math.toIntExact(member.blockLen[b] * size));
                }
                bound(base + member.lb * size, base + (member.lb + (long) member.extent) * size);
            }
        }

        private void add(long disp, int len) throws MPIException {
            if (disp < Integer.MIN_VALUE || disp > Integer.MAX_VALUE) {
                throw Failures.error(MPI.ERR_ARG, "a displacement of " + disp + " elements is out of range");
            }
            if (len == 0) {
                return;
            }
            int[] last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
            if (last != null && (long) last[0] + last[1] == disp) {
                last[1] += len;
            } else {
                blocks.add(new int[] {(int) disp, len});
            }
        }

        private void bound(long lo, long hi) {
            lb = Math.min(lb, Math.min(lo, hi));
            ub = Math.max(ub, Math.max(lo, hi));
        }

        /** The type, its extent rounded up to a multiple of {@code align} (C's struct padding). */
        Datatype build(Datatype base, int align, String name) throws MPIException {
            long lo = lb == Long.MAX_VALUE ? 0 : lb;
            long hi = ub == Long.MIN_VALUE ? 0 : ub;
            long extent = (hi - lo + align - 1) / align * align;
            int[] disp = new int[blocks.size()];
            int[] len = new int[blocks.size()];
            for (int i = 0; i < disp.length; i++) {
                disp[i] = blocks.get(i)[0];
                len[i] = blocks.get(i)[1];
            }
            if (lo < Integer.MIN_VALUE || extent > Integer.MAX_VALUE) {
                throw Failures.error(MPI.ERR_ARG, "the bounds of " + name + " are out of range");
            }
            return new Datatype(
                    base.baseType, base.baseSize, base.engineType, disp, len, (int) lo, (int) extent, false, name);
        }
    }

    private static Datatype checkOld(Datatype old) throws MPIException {
        MPI.check();
        if (old == null || old.isNull()) {
            throw Failures.error(MPI.ERR_TYPE, "old datatype is null or freed");
        }
        return old;
    }

    private static void checkCount(int count, String what) throws MPIException {
        if (count < 0) {
            throw Failures.error(MPI.ERR_COUNT, "negative " + what + " " + count);
        }
    }

    private static int elementsOfBytes(int bytes, Datatype old, String what) throws MPIException {
        if (bytes % old.baseSize != 0) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    what + " " + bytes + " is not a multiple of " + old.baseSize + ", the size of the elements of "
                            + old);
        }
        return bytes / old.baseSize;
    }

    public static Datatype createContiguous(int count, Datatype oldType) throws MPIException {
        checkOld(oldType);
        checkCount(count, "count");
        TypeMap map = new TypeMap();
        map.addItems(oldType, 0, count);
        return map.build(oldType, 1, "contiguous(" + count + ", " + oldType + ")");
    }

    /** {@code count} blocks of {@code blockLength} items, {@code stride} items apart (may be negative). */
    public static Datatype createVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkOld(oldType);
        checkCount(count, "count");
        checkCount(blockLength, "block length");
        TypeMap map = new TypeMap();
        for (int i = 0; i < count; i++) {
            map.addItems(oldType, (long) i * stride * oldType.extent, blockLength);
        }
        return map.build(oldType, 1, "vector(" + count + ", " + blockLength + ", " + stride + ", " + oldType + ")");
    }

    /** As {@link #createVector}, with the stride in bytes. */
    public static Datatype createHVector(int count, int blockLength, int stride, Datatype oldType) throws MPIException {
        checkOld(oldType);
        checkCount(count, "count");
        checkCount(blockLength, "block length");
        int strideElems = elementsOfBytes(stride, oldType, "stride");
        TypeMap map = new TypeMap();
        for (int i = 0; i < count; i++) {
            map.addItems(oldType, (long) i * strideElems, blockLength);
        }
        return map.build(oldType, 1, "hvector(" + count + ", " + blockLength + ", " + stride + ", " + oldType + ")");
    }

    /** Blocks of items at displacements in items of {@code oldType} (may be negative). */
    public static Datatype createIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        checkOld(oldType);
        return indexed(blockLengths, displacements, oldType, oldType.extent, "indexed");
    }

    /** As {@link #createIndexed}, with displacements in bytes. */
    public static Datatype createHIndexed(int[] blockLengths, int[] displacements, Datatype oldType)
            throws MPIException {
        checkOld(oldType);
        checkLengths(blockLengths, displacements, "hindexed");
        int[] elems = new int[displacements.length];
        for (int i = 0; i < elems.length; i++) {
            elems[i] = elementsOfBytes(displacements[i], oldType, "displacement");
        }
        return indexed(blockLengths, elems, oldType, 1, "hindexed");
    }

    private static void checkLengths(int[] lengths, int[] displs, String kind) throws MPIException {
        if (lengths == null || displs == null) {
            throw Failures.error(MPI.ERR_ARG, kind + ": null block lengths or displacements");
        }
        if (lengths.length != displs.length) {
            throw Failures.error(
                    MPI.ERR_ARG,
                    kind + ": " + lengths.length + " block lengths but " + displs.length + " displacements");
        }
    }

    private static Datatype indexed(int[] lengths, int[] displs, Datatype old, int unit, String kind)
            throws MPIException {
        checkLengths(lengths, displs, kind);
        TypeMap map = new TypeMap();
        for (int i = 0; i < lengths.length; i++) {
            checkCount(lengths[i], "block length");
            map.addItems(old, (long) displs[i] * unit, lengths[i]);
        }
        return map.build(old, 1, kind + "(" + lengths.length + " blocks, " + old + ")");
    }

    /**
     * A struct of blocks of different types at byte displacements (may be negative). The result's base
     * type is {@code MPI.BYTE}: its extent and bounds are in bytes. The extent is padded to the largest
     * alignment among the member types, as C does.
     */
    public static Datatype createStruct(int[] blockLengths, int[] displacements, Datatype[] types) throws MPIException {
        MPI.check();
        if (blockLengths == null || displacements == null || types == null) {
            throw Failures.error(MPI.ERR_ARG, "createStruct: null block lengths, displacements or types");
        }
        if (blockLengths.length != displacements.length || blockLengths.length != types.length) {
            throw Failures.error(MPI.ERR_ARG, "createStruct needs as many block lengths, displacements and types");
        }
        TypeMap map = new TypeMap();
        int align = 1;
        for (int i = 0; i < types.length; i++) {
            Datatype t = types[i];
            if (t == null || t.isNull()) {
                throw Failures.error(MPI.ERR_TYPE, "struct member " + i + " has a null datatype");
            }
            checkCount(blockLengths[i], "block length");
            map.addBytes(t, displacements[i], blockLengths[i]);
            align = Math.max(align, t.engineType.kind() == BaseType.Kind.PAIR ? 8 : t.baseSize);
        }
        return map.build(MPI.BYTE, align, "struct(" + types.length + " blocks)");
    }

    /**
     * A copy of {@code oldType} with a new lower bound and extent, both in bytes (multiples of the size of
     * its elements). Items of the new type are {@code extent} bytes apart; the data does not move.
     */
    public static Datatype createResized(Datatype oldType, int lb, int extent) throws MPIException {
        checkOld(oldType);
        int lbElems = elementsOfBytes(lb, oldType, "lower bound");
        int extentElems = elementsOfBytes(extent, oldType, "extent");
        if (extent < 0) {
            throw Failures.error(MPI.ERR_ARG, "negative extent " + extent);
        }
        return new Datatype(
                oldType.baseType,
                oldType.baseSize,
                oldType.engineType,
                oldType.blockDisp,
                oldType.blockLen,
                lbElems,
                extentElems,
                false,
                "resized(" + oldType + ", " + lb + ", " + extent + ")");
    }
}
