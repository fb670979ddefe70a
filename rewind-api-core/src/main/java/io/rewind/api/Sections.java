package io.rewind.api;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Objects;

/**
 * The checkpoint sections of arrays and buffers: their whole contents as bytes in the platform's
 * byte order, loaded back in place. Only {@code java.nio} is used, so the API runs on Java 17.
 */
final class Sections {
    private Sections() {}

    /** The section of {@code buffer}'s whole capacity, from index 0, heap or direct. */
    static StateSerializer of(String name, Buffer buffer) {
        Objects.requireNonNull(buffer, name);
        Buffer whole = buffer.duplicate().clear();
        int width = width(name, whole);
        return new StateSerializer() {
            @Override
            public byte[] save() {
                ByteBuffer bytes = ByteBuffer.allocate(Math.multiplyExact(whole.capacity(), width))
                        .order(ByteOrder.nativeOrder());
                copy(whole.duplicate().clear(), bytes);
                return bytes.array();
            }

            @Override
            public void load(byte[] saved) {
                checkLength(name, saved.length, (long) whole.capacity() * width);
                copy(
                        ByteBuffer.wrap(saved).order(ByteOrder.nativeOrder()),
                        whole.duplicate().clear());
            }
        };
    }

    /** The section of a boolean array: one byte, 0 or 1, per element. */
    static StateSerializer of(String name, boolean[] a) {
        Objects.requireNonNull(a, name);
        return new StateSerializer() {
            @Override
            public byte[] save() {
                byte[] b = new byte[a.length];
                for (int i = 0; i < a.length; i++) {
                    b[i] = (byte) (a[i] ? 1 : 0);
                }
                return b;
            }

            @Override
            public void load(byte[] b) {
                checkLength(name, b.length, a.length);
                for (int i = 0; i < a.length; i++) {
                    a[i] = b[i] != 0;
                }
            }
        };
    }

    private static int width(String name, Buffer b) {
        if (b instanceof ByteBuffer) {
            return Byte.BYTES;
        } else if (b instanceof CharBuffer) {
            return Character.BYTES;
        } else if (b instanceof ShortBuffer) {
            return Short.BYTES;
        } else if (b instanceof IntBuffer) {
            return Integer.BYTES;
        } else if (b instanceof LongBuffer) {
            return Long.BYTES;
        } else if (b instanceof FloatBuffer) {
            return Float.BYTES;
        } else if (b instanceof DoubleBuffer) {
            return Double.BYTES;
        }
        throw new IllegalArgumentException(
                "state '" + name + "': unsupported buffer type " + b.getClass().getName());
    }

    /**
     * Copies the elements of {@code from} into {@code to}: one of them is a byte buffer in native
     * order, seen as the other's element type, the other is the registered buffer.
     */
    private static void copy(Buffer from, Buffer to) {
        if (to instanceof ByteBuffer && from instanceof ByteBuffer) {
            ((ByteBuffer) to).put((ByteBuffer) from);
        } else if (to instanceof ByteBuffer) {
            copy(from, view((ByteBuffer) to, from));
        } else if (from instanceof ByteBuffer) {
            copy(view((ByteBuffer) from, to), to);
        } else if (to instanceof CharBuffer) {
            ((CharBuffer) to).put((CharBuffer) from);
        } else if (to instanceof ShortBuffer) {
            ((ShortBuffer) to).put((ShortBuffer) from);
        } else if (to instanceof IntBuffer) {
            ((IntBuffer) to).put((IntBuffer) from);
        } else if (to instanceof LongBuffer) {
            ((LongBuffer) to).put((LongBuffer) from);
        } else if (to instanceof FloatBuffer) {
            ((FloatBuffer) to).put((FloatBuffer) from);
        } else {
            ((DoubleBuffer) to).put((DoubleBuffer) from);
        }
    }

    /** {@code bytes} seen as a buffer of {@code like}'s element type. */
    private static Buffer view(ByteBuffer bytes, Buffer like) {
        if (like instanceof CharBuffer) {
            return bytes.asCharBuffer();
        } else if (like instanceof ShortBuffer) {
            return bytes.asShortBuffer();
        } else if (like instanceof IntBuffer) {
            return bytes.asIntBuffer();
        } else if (like instanceof LongBuffer) {
            return bytes.asLongBuffer();
        } else if (like instanceof FloatBuffer) {
            return bytes.asFloatBuffer();
        }
        return bytes.asDoubleBuffer();
    }

    static void checkLength(String name, long saved, long registered) {
        if (saved != registered) {
            throw new IllegalStateException("state '" + name + "' is " + registered + " bytes but the checkpoint holds "
                    + saved + " bytes: register objects of the same size as in the original run");
        }
    }
}
