package io.rewind.api;

import io.rewind.runtime.StateSection;
import io.rewind.runtime.rank.CheckpointAgent;
import io.rewind.runtime.rank.RankContext;
import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Objects;

/**
 * The checkpoint API of a rank. Register the state that defines the rank, call {@link #restore()}
 * once, then {@link #point()} once per main-loop iteration at a place with no request outstanding:
 *
 * <pre>{@code
 * Checkpointer cp = Checkpointer.get();
 * cp.register("grid", grid);
 * cp.register("step", step);          // int[1] holding the loop counter
 * if (!cp.restore()) {
 *     initialise(grid);
 * }
 * while (step[0] < steps) {
 *     cp.point();
 *     iterate(grid);
 *     step[0]++;
 * }
 * }</pre>
 *
 * Arrays and buffers are restored in place, so register the very objects the program keeps using.
 * Before {@code restore()} a program may create communicators but must not send or receive.
 *
 * <p>Outside a rank launched by Rewind (the program run with plain {@code java}) the checkpointer keeps
 * nothing: {@code restore()} is false, {@code point()} counts and writes nothing. One source runs under
 * Rewind, with its checkpoints, and without.
 */
public final class Checkpointer {
    private static Checkpointer instance;

    /** The rank's checkpoint agent; null outside a rank launched by Rewind, where nothing is kept. */
    private final CheckpointAgent agent;
    /** The points passed outside a rank launched by Rewind. */
    private long pointsOutside;

    private Checkpointer(CheckpointAgent agent) {
        this.agent = agent;
    }

    /** This rank's checkpointer (call after {@code MPI.Init}). */
    public static synchronized Checkpointer get() {
        if (instance == null) {
            instance = new Checkpointer(RankContext.of(Checkpointer.class).checkpoints());
        }
        return instance;
    }

    /** Whether this rank is a restarted incarnation that will restore from a checkpoint. */
    public boolean isRestart() {
        return agent != null && agent.isRestart();
    }

    /** Restores registered state after a restart; false on a fresh start. Call once, before the main loop. */
    public boolean restore() {
        return agent != null && agent.restore();
    }

    /** The checkpoint point: every N-th call writes a checkpoint; returns whether this one did. */
    public boolean point() {
        if (agent == null) {
            pointsOutside++;
            return false;
        }
        return agent.point();
    }

    /** How many times {@link #point()} has been called in this run (restored across restarts). */
    public long points() {
        return agent == null ? pointsOutside : agent.points();
    }

    public void register(String name, byte[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, short[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, char[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, int[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, long[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, float[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, double[] a) {
        segment(name, MemorySegment.ofArray(a));
    }

    public void register(String name, boolean[] a) {
        Objects.requireNonNull(a, name);
        keep(name, new StateSection() {
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
        });
    }

    /** Registers a buffer's whole capacity (from index 0), heap or direct. */
    public void register(String name, Buffer buffer) {
        Objects.requireNonNull(buffer, name);
        Buffer whole = buffer.duplicate().clear();
        MemorySegment s =
                switch (whole) {
                    case ByteBuffer b -> MemorySegment.ofBuffer(b);
                    case CharBuffer b -> MemorySegment.ofBuffer(b);
                    case ShortBuffer b -> MemorySegment.ofBuffer(b);
                    case IntBuffer b -> MemorySegment.ofBuffer(b);
                    case LongBuffer b -> MemorySegment.ofBuffer(b);
                    case FloatBuffer b -> MemorySegment.ofBuffer(b);
                    case DoubleBuffer b -> MemorySegment.ofBuffer(b);
                    default -> throw new IllegalArgumentException("unsupported buffer type " + buffer.getClass());
                };
        segment(name, s);
    }

    /** Registers any other state through its serializer. */
    public void register(String name, StateSerializer serializer) {
        Objects.requireNonNull(serializer, name);
        keep(name, new StateSection() {
            @Override
            public byte[] save() {
                return serializer.save();
            }

            @Override
            public void load(byte[] bytes) {
                serializer.load(bytes);
            }
        });
    }

    private void segment(String name, MemorySegment s) {
        Objects.requireNonNull(s, name);
        keep(name, new StateSection() {
            @Override
            public byte[] save() {
                return s.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            }

            @Override
            public void load(byte[] bytes) {
                checkLength(name, bytes.length, s.byteSize());
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, s, 0, bytes.length);
            }
        });
    }

    /** Keeps the section in the rank's checkpoints (outside a rank launched by Rewind, nowhere). */
    private void keep(String name, StateSection section) {
        Objects.requireNonNull(name, "a state needs a name");
        if (agent != null) {
            agent.register(name, section);
        }
    }

    private static void checkLength(String name, long saved, long registered) {
        if (saved != registered) {
            throw new IllegalStateException("state '" + name + "' is " + registered + " bytes but the checkpoint holds "
                    + saved + " bytes: register objects of the same size as in the original run");
        }
    }
}
