package io.rewind.ft;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR: a survivor sent one batch of logged messages to a restarted rank, its duration the time the
 * batch took to hand over. Here, beside the protocols, because every payload-logging protocol's replay
 * emits it; events of the runtime are in {@code io.rewind.runtime.watch}.
 */
@Name("io.rewind.ReplayBatch")
@Label("Replay Batch")
@Category("Rewind")
@Description("A survivor sent a batch of logged messages to a restarted rank")
@StackTrace(false)
public final class ReplayBatchEvent extends jdk.jfr.Event {
    @Label("Rank")
    @Description("The survivor that replays")
    public int rank;

    @Label("Peer")
    @Description("The restarted rank the batch goes to")
    public int peer;

    @Label("Batch")
    public long batch;

    @Label("Messages")
    public int messages;

    @Label("Payload")
    @DataAmount
    public long bytes;

    /** A begun event, to {@link #commit} once the batch is handed over. */
    public static Object begun() {
        ReplayBatchEvent e = new ReplayBatchEvent();
        e.begin();
        return e;
    }

    /** Ends and commits an event {@link #begun} made, if JFR records it. */
    public static void commit(Object begun, int rank, int peer, long batch, int messages, long bytes) {
        ReplayBatchEvent e = (ReplayBatchEvent) begun;
        if (e.shouldCommit()) {
            e.rank = rank;
            e.peer = peer;
            e.batch = batch;
            e.messages = messages;
            e.bytes = bytes;
            e.commit();
        }
    }
}
