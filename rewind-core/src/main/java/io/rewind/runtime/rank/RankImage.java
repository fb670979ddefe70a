package io.rewind.runtime.rank;

import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointStore;
import java.util.Map;

/** What a rank's checkpoint image says of the job's channels, as the job's coordinator reads it. */
public final class RankImage {
    private RankImage() {}

    /**
     * The arrival frontiers a line holds: what its rank had received from each channel, counting the
     * messages kept in transit across the line when the image carries them ({@link
     * CheckpointStore#loadWithChannelState}).
     */
    public static Map<Long, Long> frontiers(CheckpointImage image) {
        return ChannelState.withInTransit(
                        EngineStateCodec.decode(image.section(CheckpointAgent.RUNTIME_SECTION))
                                .mailbox(),
                        image)
                .frontiers();
    }

    /** What a line's rank had sent per outgoing channel, or null if the file predates that record. */
    public static Map<Long, Long> sent(CheckpointImage image) {
        return ChannelState.sent(image);
    }

    /** The counts of non-deterministic events a line holds ({@link io.rewind.ft.RecoveryLines.Line#events}). */
    public static long[] events(CheckpointImage image) {
        return CheckpointAgent.events(image);
    }
}
