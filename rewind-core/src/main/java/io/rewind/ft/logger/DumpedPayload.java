package io.rewind.ft.logger;

import io.rewind.ft.log.MessageKey;
import io.rewind.ft.log.StoredPayload;
import java.util.ArrayList;
import java.util.List;

/**
 * A logged payload that lives at logger nodes (one, or two with replicas) instead of in its sender's
 * memory. The sender's index of sent frames refers to it like to a log entry; replay reads it back
 * through the sender's {@link LoggerClient}. Guarded by the job's {@link LoggerNodes} lock.
 */
public final class DumpedPayload implements StoredPayload {
    private final MessageKey key;
    private final long lengthBytes;
    final LoggerClient owner;
    /** Where copies are: one per logger that stored it. */
    final List<Placement> placements = new ArrayList<>(2);
    /** Destination world ranks of the frames that carry it (several for a collective's shared result). */
    int[] destinations = new int[0];
    /** Frames of the sender's index that refer to it; released at the loggers when none is left. */
    int references;
    /** Whether the sender's index refers to it yet (a dump completes before the rank takes it in). */
    boolean attached;

    boolean released;

    DumpedPayload(MessageKey key, long lengthBytes, LoggerClient owner) {
        this.key = key;
        this.lengthBytes = lengthBytes;
        this.owner = owner;
    }

    @Override
    public MessageKey key() {
        return key;
    }

    @Override
    public long lengthBytes() {
        return lengthBytes;
    }

    /** One more frame of the sender's index refers to it; false if it was released already. */
    public boolean reference() {
        return owner.reference(this);
    }

    /** Whether its loggers were told to let it go. */
    public boolean isReleased() {
        return owner.isReleased(this);
    }

    /** One frame of the sender's index no longer refers to it (trimmed, or its channel dropped). */
    public void unreference() {
        owner.unreference(this);
    }

    /** A copy at one logger: the stored block and where the payload starts in it. */
    public record Placement(LoggerNode node, long blockId, long payloadOffset) {}

    /** One more copy, at {@code node} (a logger elsewhere stored it). Lock of the job's loggers held. */
    public void addPlacement(LoggerNode node, long blockId, long payloadOffset) {
        placements.add(new Placement(node, blockId, payloadOffset));
    }

    @Override
    public String toString() {
        return "dumped " + key + " (" + lengthBytes + " bytes)";
    }
}
