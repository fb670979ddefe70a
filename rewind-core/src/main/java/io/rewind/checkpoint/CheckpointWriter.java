package io.rewind.checkpoint;

/**
 * Where a rank's checkpoints go: a folder of this machine ({@link CheckpointStore}), or, for a rank
 * process, its node's agent, which keeps the file in the node's folder and a copy on a partner node.
 */
public interface CheckpointWriter {
    /**
     * Writes the image durably: when this returns, the line survives the crash of the writing rank
     * (and, where the writer copies to a partner, the loss of its node). Returns the bytes written.
     *
     * @throws CheckpointException if the line could not be written
     */
    long write(CheckpointImage image);

    /**
     * Writes part {@code part} (1, 2, ...) of the channel state of line {@code image.line()}: messages in
     * transit across the line, kept as they arrived after it ({@link CheckpointStore#CHANNEL_STATE_SECTION}
     * is the image's one section). Durable as {@link #write} is when it returns; goes when the line goes.
     *
     * @throws CheckpointException if the part could not be written
     */
    long writeInTransit(CheckpointImage image, int part);
}
