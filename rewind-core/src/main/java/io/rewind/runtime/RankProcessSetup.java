package io.rewind.runtime;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointWriter;

/**
 * What one rank process runs: which rank and incarnation, the image it restarts from (null: from the
 * beginning), where its predecessor crashed (for the catch-up phase of the recovery timeline) and the
 * kills still scheduled for it.
 *
 * @param catchUpPoints     checkpoint points at which it is back where its predecessor crashed
 * @param catchUpOperations for a restart from the beginning, the same in communication operations
 * @param checkpoints       where the rank writes its checkpoints (its node's agent)
 * @param input             the job's standard input, read from the launcher (rank 0 reads it)
 */
public record RankProcessSetup(
        int rank,
        int incarnation,
        CheckpointImage image,
        long catchUpPoints,
        long catchUpOperations,
        FailureSchedule kills,
        CheckpointWriter checkpoints,
        InputRouter.RankInput.Source input) {}
