package io.rewind.engine;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The predefined MPI reduction operators. Integer types are combined in 64-bit arithmetic and
 * truncated on store (two's complement wrap, as C does); {@code CHAR} compares unsigned. Single
 * precision results are computed in double and rounded once, which is exactly IEEE single
 * precision for one add or multiply.
 */
public enum PredefinedOp implements ReduceFunction {
    MAX,
    MIN,
    SUM,
    PROD,
    LAND,
    BAND,
    LOR,
    BOR,
    LXOR,
    BXOR,
    MINLOC,
    MAXLOC,
    REPLACE,
    NO_OP;

    private static final ValueLayout.OfByte B = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfChar C = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    @Override
    public boolean isCommutative() {
        return this != REPLACE;
    }

    /** Rejects operator/type pairs MPI does not define, before any data moves. */
    public void checkApplicable(BaseType type) {
        boolean ok =
                switch (this) {
                    case MAX, MIN -> type.kind() == BaseType.Kind.INTEGER || type.kind() == BaseType.Kind.FLOATING;
                    case SUM, PROD -> type.kind() == BaseType.Kind.INTEGER
                            || type.kind() == BaseType.Kind.FLOATING
                            || type.kind() == BaseType.Kind.COMPLEX;
                    case LAND, LOR, LXOR -> type.kind() == BaseType.Kind.INTEGER
                            || type.kind() == BaseType.Kind.LOGICAL;
                    case BAND, BOR, BXOR -> type.kind() == BaseType.Kind.INTEGER || type == BaseType.BOOLEAN;
                    case MINLOC, MAXLOC -> type.kind() == BaseType.Kind.PAIR;
                    case REPLACE, NO_OP -> true;
                };
        if (!ok) {
            throw RewindException.of(ErrorClass.OP, "operator %s is not defined for type %s", this, type);
        }
    }

    @Override
    public void apply(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType type) {
        checkApplicable(type);
        switch (this) {
            case NO_OP -> {}
            case REPLACE -> MemorySegment.copy(in, inOff, io, ioOff, (long) count * type.sizeBytes());
            case MINLOC, MAXLOC -> applyPair(in, inOff, io, ioOff, count, type);
            default -> {
                switch (type.kind()) {
                    case FLOATING -> applyFloating(in, inOff, io, ioOff, count, type);
                    case COMPLEX -> applyComplex(in, inOff, io, ioOff, count, type);
                    case LOGICAL -> applyBoolean(in, inOff, io, ioOff, count);
                    default -> applyInteger(in, inOff, io, ioOff, count, type);
                }
            }
        }
    }

    private void applyInteger(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType type) {
        int size = type.sizeBytes();
        if (type == BaseType.INT && this == SUM) {
            for (int i = 0; i < count; i++) {
                long o = (long) i * 4;
                io.set(I, ioOff + o, in.get(I, inOff + o) + io.get(I, ioOff + o));
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            long a = inOff + (long) i * size;
            long b = ioOff + (long) i * size;
            long x = readInteger(in, a, type);
            long y = readInteger(io, b, type);
            long r =
                    switch (this) {
                        case MAX -> Math.max(x, y);
                        case MIN -> Math.min(x, y);
                        case SUM -> x + y;
                        case PROD -> x * y;
                        case LAND -> (x != 0 && y != 0) ? 1 : 0;
                        case LOR -> (x != 0 || y != 0) ? 1 : 0;
                        case LXOR -> ((x != 0) != (y != 0)) ? 1 : 0;
                        case BAND -> x & y;
                        case BOR -> x | y;
                        case BXOR -> x ^ y;
                        default -> throw new IllegalStateException(name());
                    };
            writeInteger(io, b, type, r);
        }
    }

    private static long readInteger(MemorySegment s, long off, BaseType type) {
        return switch (type) {
            case BYTE -> s.get(B, off);
            case CHAR -> s.get(C, off); // unsigned, widened
            case SHORT -> s.get(S, off);
            case INT -> s.get(I, off);
            case LONG -> s.get(L, off);
            default -> throw new IllegalStateException(type.name());
        };
    }

    private static void writeInteger(MemorySegment s, long off, BaseType type, long v) {
        switch (type) {
            case BYTE -> s.set(B, off, (byte) v);
            case CHAR -> s.set(C, off, (char) v);
            case SHORT -> s.set(S, off, (short) v);
            case INT -> s.set(I, off, (int) v);
            case LONG -> s.set(L, off, v);
            default -> throw new IllegalStateException(type.name());
        }
    }

    private void applyFloating(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType type) {
        if (type == BaseType.DOUBLE) {
            for (int i = 0; i < count; i++) {
                long o = (long) i * 8;
                double x = in.get(D, inOff + o);
                double y = io.get(D, ioOff + o);
                io.set(D, ioOff + o, combine(x, y));
            }
        } else {
            for (int i = 0; i < count; i++) {
                long o = (long) i * 4;
                float x = in.get(F, inOff + o);
                float y = io.get(F, ioOff + o);
                io.set(F, ioOff + o, (float) combine(x, y));
            }
        }
    }

    private double combine(double x, double y) {
        return switch (this) {
            case MAX -> Math.max(x, y);
            case MIN -> Math.min(x, y);
            case SUM -> x + y;
            case PROD -> x * y;
            default -> throw new IllegalStateException(name());
        };
    }

    private void applyBoolean(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count) {
        for (int i = 0; i < count; i++) {
            boolean x = in.get(B, inOff + i) != 0;
            boolean y = io.get(B, ioOff + i) != 0;
            boolean r =
                    switch (this) {
                        case LAND, BAND -> x && y;
                        case LOR, BOR -> x || y;
                        case LXOR, BXOR -> x != y;
                        default -> throw new IllegalStateException(name());
                    };
            io.set(B, ioOff + i, (byte) (r ? 1 : 0));
        }
    }

    private void applyComplex(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType type) {
        boolean dbl = type == BaseType.DOUBLE_COMPLEX;
        int half = dbl ? 8 : 4;
        for (int i = 0; i < count; i++) {
            long a = inOff + (long) i * 2 * half;
            long b = ioOff + (long) i * 2 * half;
            double ar = dbl ? in.get(D, a) : in.get(F, a);
            double ai = dbl ? in.get(D, a + half) : in.get(F, a + half);
            double br = dbl ? io.get(D, b) : io.get(F, b);
            double bi = dbl ? io.get(D, b + half) : io.get(F, b + half);
            double rr;
            double ri;
            if (this == SUM) {
                rr = ar + br;
                ri = ai + bi;
            } else {
                rr = ar * br - ai * bi;
                ri = ar * bi + ai * br;
            }
            if (dbl) {
                io.set(D, b, rr);
                io.set(D, b + half, ri);
            } else {
                io.set(F, b, (float) rr);
                io.set(F, b + half, (float) ri);
            }
        }
    }

    private void applyPair(MemorySegment in, long inOff, MemorySegment io, long ioOff, int count, BaseType type) {
        int size = type.sizeBytes();
        int idx = type.pairIndexOffset();
        for (int i = 0; i < count; i++) {
            long a = inOff + (long) i * size;
            long b = ioOff + (long) i * size;
            int cmp =
                    switch (type) {
                        case INT2 -> Integer.compare(in.get(I, a), io.get(I, b));
                        case SHORT_INT -> Short.compare(in.get(S, a), io.get(S, b));
                        case LONG_INT -> Long.compare(in.get(L, a), io.get(L, b));
                        case FLOAT_INT -> Float.compare(in.get(F, a), io.get(F, b));
                        case DOUBLE_INT -> Double.compare(in.get(D, a), io.get(D, b));
                        default -> throw new IllegalStateException(type.name());
                    };
            int ia = in.get(I, a + idx);
            int ib = io.get(I, b + idx);
            boolean takeIn = this == MINLOC ? cmp < 0 : cmp > 0;
            if (takeIn) {
                MemorySegment.copy(in, a, io, b, size);
            } else if (cmp == 0 && ia < ib) {
                io.set(I, b + idx, ia);
            }
        }
    }
}
