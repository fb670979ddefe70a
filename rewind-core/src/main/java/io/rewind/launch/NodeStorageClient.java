package io.rewind.launch;

import io.rewind.checkpoint.CheckpointException;
import io.rewind.checkpoint.CheckpointFormat;
import io.rewind.checkpoint.CheckpointImage;
import io.rewind.checkpoint.CheckpointWriter;
import io.rewind.runtime.rank.CheckpointAgent;
import io.rewind.transport.JobSecret;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A rank process's way to its node's checkpoint service ({@link NodeStore}): a checkpoint is written
 * once the service holds it on the node and on its partner, and a restarted rank reads the line it
 * restarts from there. Remembers, for the launcher, which nodes hold each line written and what the
 * rank had printed by then.
 */
final class NodeStorageClient implements CheckpointWriter, AutoCloseable {
    /** Longer than the service's own wait for its partner: its answer always comes first. */
    private static final long ANSWER_TIMEOUT_MILLIS = TimeUnit.SECONDS.toMillis(300);

    private final int rank;
    private final int incarnation;
    private final Link link;
    private final Requests requests;
    private final ConcurrentHashMap<Long, Written> written = new ConcurrentHashMap<>();

    /** Where one line went: the nodes holding it, and the rank's output position in it. */
    record Written(List<String> holders, long[] output) {}

    private NodeStorageClient(int rank, int incarnation, Link link) {
        this.rank = rank;
        this.incarnation = incarnation;
        this.link = link;
        this.requests = new Requests(link);
        link.startReader(
                m -> {
                    if (m instanceof Messages.Answer a) {
                        requests.answered(a);
                    }
                },
                requests::closed);
    }

    static NodeStorageClient connect(InetSocketAddress service, JobSecret secret, int rank, int incarnation)
            throws IOException {
        Link link = Link.connect(
                service, secret, "rank-" + rank + "." + incarnation + "-store", Link.STORAGE_MESSAGE_BYTES);
        return new NodeStorageClient(rank, incarnation, link);
    }

    @Override
    public long write(CheckpointImage image) {
        byte[] bytes = CheckpointFormat.encode(image);
        Messages.Stored stored;
        try {
            stored = (Messages.Stored) requests.call(
                    new Messages.StoreLine(rank, incarnation, image.line(), 0, bytes, false), ANSWER_TIMEOUT_MILLIS);
        } catch (IllegalStateException e) {
            throw new CheckpointException(
                    "rank " + rank + ": the node's checkpoint service did not keep line " + image.line() + ": "
                            + e.getMessage(),
                    e);
        }
        written.put(image.line(), new Written(stored.holders(), CheckpointAgent.outputPosition(image)));
        // Only the newest lines are ever reported; the map holds what was written but not yet reported.
        written.keySet().removeIf(l -> l < image.line() - 1);
        return bytes.length;
    }

    @Override
    public long writeInTransit(CheckpointImage image, int part) {
        byte[] bytes = CheckpointFormat.encode(image);
        try {
            requests.call(
                    new Messages.StoreLine(rank, incarnation, image.line(), part, bytes, false), ANSWER_TIMEOUT_MILLIS);
        } catch (IllegalStateException e) {
            throw new CheckpointException(
                    "rank " + rank + ": the node's checkpoint service did not keep part " + part + " of line "
                            + image.line() + "'s channel state: " + e.getMessage(),
                    e);
        }
        return bytes.length;
    }

    /** Where a line this incarnation wrote went (null if it wrote none under that number). */
    Written written(long line) {
        return written.get(line);
    }

    /** Reads and verifies the line this rank restarts from. */
    CheckpointImage load(long line) {
        byte[] bytes;
        try {
            bytes = (byte[]) requests.call(new Messages.LoadLine(rank, line), ANSWER_TIMEOUT_MILLIS);
        } catch (IllegalStateException e) {
            throw new CheckpointException(
                    "rank " + rank + ": cannot read line " + line + " from the node's checkpoint service: "
                            + e.getMessage(),
                    e);
        }
        CheckpointImage image = CheckpointFormat.decode(bytes, "rank " + rank + " line " + line);
        if (image.rank() != rank || image.line() != line) {
            throw new CheckpointException("rank " + rank + " line " + line + ": the file holds rank " + image.rank()
                    + " line " + image.line());
        }
        return image;
    }

    @Override
    public void close() {
        link.close();
    }
}
