package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import io.rewind.ft.logger.LoggerNodes;
import io.rewind.notice.RuntimeNotices;
import io.rewind.runtime.coordinator.RecoveryCoordinator;
import io.rewind.runtime.coordinator.StoredLines;
import io.rewind.runtime.rank.RankImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Comparator;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The checkpoint folder of an in-JVM job on this machine: where its ranks write their lines, what its
 * coordinator reads of it to plan a recovery (with what its logger nodes lost), the images its
 * restarts load, and, for a resumed job, the line its ranks start from. A folder the job made for
 * itself is removed at its end. Coordinator thread only, but for the ranks' own writes.
 */
final class LocalCheckpoints implements StoredLines {
    private final JobConfig config;
    private final Path folder;
    /** Whether the job made the folder (none given): it is removed at the end, and nothing resumes from it. */
    private final boolean own;

    private final CheckpointStore store;
    /** The job's logger nodes (null: none). */
    private final LoggerNodes loggers;
    /** Whether storage holds back pruning for a recovery under way (see {@link CheckpointStore#holdPruning}). */
    private boolean pruningHeld;
    /** The images a resumed job's ranks start from (null: not resumed). */
    private CheckpointImage[] resumeImages;

    LocalCheckpoints(JobConfig config, LoggerNodes loggers) {
        this.config = config;
        this.loggers = loggers;
        try {
            this.own = config.faultTolerance().checkpointDir() == null;
            this.folder = own
                    ? Files.createTempDirectory("rewind-checkpoints-")
                    : Files.createDirectories(config.faultTolerance().checkpointDir());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot create the checkpoint folder: " + e.getMessage(), e);
        }
        this.store = new CheckpointStore(folder, config.faultTolerance().keepLines());
    }

    CheckpointStore store() {
        return store;
    }

    /**
     * The line a resumed job's ranks start from (0: the job starts from the beginning). Every rank holds
     * it, and starts from it as if it had just written it (its output up to there was printed by the run
     * that died): the coordinator is told so.
     */
    long resume(RecoveryCoordinator coordinator) {
        long line = own ? 0 : ResumePoint.prepare(config, store);
        if (line == 0) {
            return 0;
        }
        resumeImages = new CheckpointImage[config.ranks()];
        for (int r = 0; r < config.ranks(); r++) {
            CheckpointImage image = load(r, line);
            resumeImages[r] = image;
            coordinator.resumedFrom(
                    r, line, RankImage.frontiers(image), RankImage.events(image), RankImage.sent(image));
        }
        return line;
    }

    /** The image incarnation {@code incarnation} of {@code rank} starts from at {@code line} (null: the beginning). */
    CheckpointImage imageFor(int rank, int incarnation, long line) {
        if (incarnation == 0 && resumeImages != null) {
            return resumeImages[rank];
        }
        return line > 0 ? load(rank, line) : null;
    }

    private CheckpointImage load(int rank, long line) {
        return store.loadWithChannelState(rank, line, why -> RuntimeNotices.print("rewind: " + why));
    }

    void discardAfter(int rank, long line) {
        store.discardAfter(rank, line);
    }

    void keepFrom(long line) {
        if (line > 0) {
            store.keepFrom(line);
        }
    }

    @Override
    public LoggerNodes.Rollback sendersToRollBack(Set<Integer> planned) {
        return loggers == null ? LoggerNodes.Rollback.NONE : loggers.sendersToRollBack(planned);
    }

    @Override
    public long newestCommonLine(Collection<Integer> ranks, long atMost) {
        return store.newestCommonLine(ranks, atMost, why -> RuntimeNotices.print("rewind: " + why));
    }

    @Override
    public void holdPruning(boolean held) {
        if (held && !pruningHeld) {
            store.holdPruning();
        } else if (!held && pruningHeld) {
            store.allowPruning();
        }
        pruningHeld = held;
    }

    /** Removes the folder if the job made it. */
    void close() {
        store.closeFiles();
        if (!own) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            RuntimeNotices.print("rewind: could not remove " + folder + ": " + e.getMessage());
        }
    }
}
