package io.rewind.api;

import io.rewind.api.spi.RankBinding;
import io.rewind.api.spi.RankCheckpoints;
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

    /** The rank's checkpoints; null outside a rank launched by Rewind, where nothing is kept. */
    private final RankCheckpoints agent;
    /** The points passed outside a rank launched by Rewind. */
    private long pointsOutside;

    private Checkpointer(RankCheckpoints agent) {
        this.agent = agent;
    }

    /** This rank's checkpointer (call after {@code MPI.Init}). */
    public static synchronized Checkpointer get() {
        if (instance == null) {
            RankBinding binding = Binding.get();
            instance = new Checkpointer(binding == null ? null : binding.checkpoints());
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

    /** Registers a byte array, restored in place. */
    public void register(String name, byte[] a) {
        register(name, a == null ? null : ByteBuffer.wrap(a));
    }

    /** Registers a short array, restored in place. */
    public void register(String name, short[] a) {
        register(name, a == null ? null : ShortBuffer.wrap(a));
    }

    /** Registers a char array, restored in place. */
    public void register(String name, char[] a) {
        register(name, a == null ? null : CharBuffer.wrap(a));
    }

    /** Registers an int array, restored in place. */
    public void register(String name, int[] a) {
        register(name, a == null ? null : IntBuffer.wrap(a));
    }

    /** Registers a long array, restored in place. */
    public void register(String name, long[] a) {
        register(name, a == null ? null : LongBuffer.wrap(a));
    }

    /** Registers a float array, restored in place. */
    public void register(String name, float[] a) {
        register(name, a == null ? null : FloatBuffer.wrap(a));
    }

    /** Registers a double array, restored in place. */
    public void register(String name, double[] a) {
        register(name, a == null ? null : DoubleBuffer.wrap(a));
    }

    /** Registers a boolean array, restored in place. */
    public void register(String name, boolean[] a) {
        keep(name, Sections.of(name, a));
    }

    /** Registers a buffer's whole capacity (from index 0), heap or direct. */
    public void register(String name, Buffer buffer) {
        keep(name, Sections.of(name, buffer));
    }

    /** Registers any other state through its serializer. */
    public void register(String name, StateSerializer serializer) {
        Objects.requireNonNull(serializer, name);
        keep(name, serializer);
    }

    /** Keeps the section in the rank's checkpoints (outside a rank launched by Rewind, nowhere). */
    private void keep(String name, StateSerializer section) {
        Objects.requireNonNull(name, "a state needs a name");
        if (agent != null) {
            agent.register(name, section);
        }
    }
}
