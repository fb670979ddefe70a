package io.rewind.apps.bench;

import io.rewind.api.Checkpointer;
import mpi.MPIException;

/**
 * OSU-style ping-pong between ranks 0 and 1 for sizes from 1 byte to a maximum (default 4 MiB),
 * with byte arrays or direct buffers. For every size it runs several batches of round trips and
 * reports the median half round trip; beside it, the bandwidth of a single-thread copy of the same
 * size in the same process, the physical limit of any in-memory transport.
 *
 * <p>Usage: {@code PingPong [array|direct] [maxBytes] [batches] [minBytes] [sizeFactor] [workScale]
 * [warmUpMillis]}:
 * sizes go from {@code minBytes} (default 1) to {@code maxBytes} multiplied by {@code sizeFactor}
 * (default 2); {@code workScale} (default 1) scales the round trips per batch; {@code warmUpMillis}
 * (default 0) adds that long of warm-up round trips at every size, before its batches. Rank 0 prints one CSV
 * line per size: {@code pingpong,<buffer>,<bytes>,<median half round trip ns>,<MB/s>,<copy MB/s>,<each
 * batch's half round trip ns, separated by ';', in the order they ran>}.
 *
 * <p>Before the first size, short round trips warm the send and receive path up. Between batches,
 * outside the timed part, each rank passes a checkpoint point. Without a
 * fault-tolerance protocol that does nothing; under a logging protocol with checkpoints enabled it
 * is where the log is truncated, so a long run measures the log in its steady state (memory
 * recycled at every checkpoint) instead of a log that grows without bound.
 *
 * <p>The measurement itself is {@link PortablePingPong}, which uses nothing beyond package {@code mpi}
 * (so the same source also runs on Open MPI's Java bindings); this class runs it with Rewind's
 * checkpoint point bound directly.
 */
public final class PingPong {
    private PingPong() {}

    public static void main(String[] args) throws MPIException {
        PortablePingPong.run(args, () -> {
            Checkpointer cp = Checkpointer.get();
            return cp::point;
        });
    }
}
