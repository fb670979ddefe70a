package io.rewind.engine;

/**
 * The element types the engine moves and reduces. Sizes are in bytes as laid out in Java arrays and
 * in native-order NIO buffers. Pair types (value, index) are the MINLOC/MAXLOC types; their layout
 * is the C struct layout Open MPI's Java bindings use ({@code value} first, then an {@code int}
 * index, padded to the value's alignment).
 */
public enum BaseType {
    BYTE(1, Kind.INTEGER),
    CHAR(2, Kind.INTEGER),
    SHORT(2, Kind.INTEGER),
    BOOLEAN(1, Kind.LOGICAL),
    INT(4, Kind.INTEGER),
    LONG(8, Kind.INTEGER),
    FLOAT(4, Kind.FLOATING),
    DOUBLE(8, Kind.FLOATING),
    PACKED(1, Kind.OPAQUE),
    /** (int value, int index): 8 bytes. */
    INT2(8, Kind.PAIR),
    /** (short value, int index): 2 + pad 2 + 4 = 8 bytes. */
    SHORT_INT(8, Kind.PAIR),
    /** (long value, int index): 8 + 4 + pad 4 = 16 bytes. */
    LONG_INT(16, Kind.PAIR),
    /** (float value, int index): 8 bytes. */
    FLOAT_INT(8, Kind.PAIR),
    /** (double value, int index): 8 + 4 + pad 4 = 16 bytes. */
    DOUBLE_INT(16, Kind.PAIR),
    /** (float real, float imaginary). */
    FLOAT_COMPLEX(8, Kind.COMPLEX),
    /** (double real, double imaginary). */
    DOUBLE_COMPLEX(16, Kind.COMPLEX);

    /** What reductions a type admits. */
    public enum Kind {
        INTEGER,
        LOGICAL,
        FLOATING,
        PAIR,
        COMPLEX,
        OPAQUE
    }

    private final int sizeBytes;
    private final Kind kind;

    BaseType(int sizeBytes, Kind kind) {
        this.sizeBytes = sizeBytes;
        this.kind = kind;
    }

    public int sizeBytes() {
        return sizeBytes;
    }

    public Kind kind() {
        return kind;
    }

    /** Offset of the int index inside a pair element. */
    public int pairIndexOffset() {
        return switch (this) {
            case INT2, FLOAT_INT, SHORT_INT -> 4;
            case LONG_INT, DOUBLE_INT -> 8;
            default -> throw new IllegalStateException(this + " is not a pair type");
        };
    }

    /** Bytes of the value inside a pair element (the index is an {@code int} at {@link #pairIndexOffset}). */
    public int pairValueBytes() {
        return switch (this) {
            case SHORT_INT -> 2;
            case INT2, FLOAT_INT -> 4;
            case LONG_INT, DOUBLE_INT -> 8;
            default -> throw new IllegalStateException(this + " is not a pair type");
        };
    }
}
