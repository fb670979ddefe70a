package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointStore;
import io.rewind.ft.RecoveryLines;
import io.rewind.ft.RecoveryView;
import java.util.Collection;
import java.util.function.IntToLongFunction;

/**
 * What a protocol may look at to plan a recovery, for a job whose checkpoints are in a {@link
 * CheckpointStore}: the line each rank's current incarnation has reached, and the lines the store
 * holds valid files of. Used by the in-JVM job and by the launcher of rank processes alike.
 */
public final class StoredLinesView implements RecoveryView {
    private final int ranks;
    private final IntToLongFunction lineReached;
    private final CheckpointStore store;
    private final RecoveryLines lines;

    /**
     * @param lineReached the newest line a rank's current incarnation has written or restarted from:
     *     not the newest file, since a rank restarted from line L has files of later lines from the
     *     incarnation that died, but until it writes them again it depends on what its peers sent
     *     after L, and a peer restarting later must not restart past L
     */
    public StoredLinesView(int ranks, IntToLongFunction lineReached, CheckpointStore store, RecoveryLines lines) {
        this.ranks = ranks;
        this.lineReached = lineReached;
        this.store = store;
        this.lines = lines;
    }

    @Override
    public int ranks() {
        return ranks;
    }

    @Override
    public long newestLine(int rank) {
        return lineReached.applyAsLong(rank);
    }

    @Override
    public long newestCommonLine(Collection<Integer> of, long atMost) {
        return store.newestCommonLine(of, atMost, why -> System.err.println("rewind: " + why));
    }

    @Override
    public boolean complete(Collection<Integer> group, long line) {
        return lines.complete(group, line);
    }
}
