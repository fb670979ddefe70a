package mpi.conformance.pt2pt;

import static mpi.conformance.Jobs.checkEq;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.check.RecoveryCheck;
import io.rewind.ft.ProtocolDescriptor;
import io.rewind.ft.ProtocolRegistry;
import io.rewind.runtime.FailureSchedule;
import io.rewind.runtime.RunReport;
import java.util.List;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.conformance.Jobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A restarted rank takes its peers' replayed messages in at its own pace: a peer sends the next
 * batch of its log only when the rank has taken most of the last one in, or waits for a message from
 * that peer. The programs here crash a rank that has already received thousands of messages from two
 * peers, one after the other; restarted from its start, it must not hold the second peer's whole
 * replay while it works through the first's, and it must still get every message it waits for when
 * it takes a peer's messages in another order than they were sent.
 */
@Tag("conformance")
class ReplayPacingTest {
    private static final int MESSAGES = 3000;

    /**
     * Frames that may wait in the restarted rank at once: two batches from each of the two peers (a
     * batch is at most 64 frames), and a few more of the program's own. Without pacing the second
     * peer's replay arrives whole while the rank is busy with the first's.
     */
    private static final int HELD_AT_MOST = 2 * 2 * 64 + 16;

    @Test
    void aRestartedRankHoldsAFewBatchesNotTheWholeReplay() {
        RecoveryCheck check = RecoveryCheck.of(Jobs.config(TwoStreams.class, 3, Integer.toString(MESSAGES)));
        killRankZeroUnderEveryProtocol(check, 0.9, ReplayPacingTest::assertHeldAFewBatches);
    }

    /**
     * A peer's messages on two contexts (point to point and a collective's), alternating: replayed in
     * the order they were sent, not one context's whole stream before the other's, the restarted rank
     * holds a few batches of them, not every later iteration's point-to-point message.
     */
    @Test
    void aPeersMessagesOnTwoContextsReplayInTheOrderTheyWereSent() {
        RecoveryCheck check = RecoveryCheck.of(Jobs.config(Alternating.class, 2, Integer.toString(MESSAGES)));
        killRankZeroUnderEveryProtocol(check, 0.9, ReplayPacingTest::assertHeldAFewBatches);
    }

    /**
     * The restarted rank takes a peer's last message (another tag) before the thousands queued before
     * it, first through a blocking probe, then through a receive: the pacing must let the replay run
     * ahead to it.
     */
    @Test
    void aRankThatTakesAPeersMessagesOutOfOrderStillGetsThem() {
        for (String how : List.of("probe", "recv")) {
            RecoveryCheck check = RecoveryCheck.of(Jobs.config(LastFirst.class, 2, Integer.toString(MESSAGES), how));
            killRankZeroUnderEveryProtocol(check, 0.75, (p, v) -> {});
        }
    }

    /** Checks that no restarted rank of the run held more than {@link #HELD_AT_MOST} frames at once. */
    private static void assertHeldAFewBatches(ProtocolDescriptor p, RecoveryCheck.Verdict v) {
        for (RunReport.FailureRecord f : v.result().report().failures()) {
            assertTrue(
                    f.peakUnmatched() <= HELD_AT_MOST,
                    () -> p.name() + ": the restarted rank held " + f.peakUnmatched() + " unmatched frames at once: "
                            + f);
        }
    }

    /**
     * Kills rank 0 at {@code fraction} of its failure-free operations under every protocol that
     * recovers, checks each run against the failure-free output, then hands it to {@code also}.
     */
    private static void killRankZeroUnderEveryProtocol(
            RecoveryCheck check,
            double fraction,
            java.util.function.BiConsumer<ProtocolDescriptor, RecoveryCheck.Verdict> also) {
        long at = Math.max(1, (long) (check.operations()[0] * fraction));
        FailureSchedule kill =
                new FailureSchedule(List.of(new FailureSchedule.Kill(0, FailureSchedule.Trigger.OPERATION, at)));
        int struck = 0;
        for (ProtocolDescriptor p : ProtocolRegistry.recovering()) {
            RecoveryCheck.Verdict v = check.run(p, 0, kill, Jobs::launch);
            assertTrue(v.ok(), () -> "rank 0 killed (" + kill + "): " + v.describe());
            struck += v.struck();
            also.accept(p, v);
        }
        assertTrue(struck > 0, "no kill struck, so nothing was checked");
    }

    /**
     * Ranks 1 and 2 each send rank 0 {@code n} numbers, one at a time, each answered by rank 0 before
     * the next; rank 0 takes all of rank 1's, then all of rank 2's, and prints a checksum of them in the
     * order taken.
     */
    public static final class TwoStreams {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int n = Integer.parseInt(args[0]);
            int[] buf = new int[1];
            if (w.getRank() == 0) {
                long sum = 0;
                for (int source = 1; source <= 2; source++) {
                    for (int i = 0; i < n; i++) {
                        w.recv(buf, 1, MPI.INT, source, 7);
                        checkEq(source * 1_000_000L + i, buf[0], "message " + i + " from " + source);
                        sum = sum * 31 + buf[0];
                        w.send(buf, 1, MPI.INT, source, 8);
                    }
                }
                System.out.println("checksum " + sum);
            } else {
                for (int i = 0; i < n; i++) {
                    buf[0] = w.getRank() * 1_000_000 + i;
                    w.send(buf, 1, MPI.INT, 0, 7);
                    w.recv(buf, 1, MPI.INT, 0, 8);
                    checkEq(w.getRank() * 1_000_000L + i, buf[0], "answer " + i);
                }
            }
            MPI.Finalize();
        }
    }

    /**
     * {@code n} iterations of: rank 1 sends rank 0 a number, both sum their numbers with {@code
     * allReduce}, then rank 0 receives the number (so it waits in the collective with rank 1's message
     * queued); rank 0 prints a checksum.
     */
    public static final class Alternating {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int n = Integer.parseInt(args[0]);
            int[] buf = new int[1];
            int[] sum = new int[1];
            long checksum = 0;
            for (int i = 0; i < n; i++) {
                if (w.getRank() == 1) {
                    buf[0] = 3 * i + 1;
                    w.send(buf, 1, MPI.INT, 0, 5);
                }
                sum[0] = w.getRank() + i;
                w.allReduce(sum, 1, MPI.INT, MPI.SUM);
                checkEq(2L * i + 1, sum[0], "sum of iteration " + i);
                if (w.getRank() == 0) {
                    w.recv(buf, 1, MPI.INT, 1, 5);
                    checkEq(3L * i + 1, buf[0], "message " + i);
                    checksum = checksum * 31 + buf[0] + sum[0];
                }
            }
            if (w.getRank() == 0) {
                System.out.println("checksum " + checksum);
            }
            MPI.Finalize();
        }
    }

    /**
     * Rank 1 sends {@code n} numbers with tag 1, then one with tag 2; rank 0 takes the tag-2 one first
     * (by a blocking probe then a receive, or by a receive alone), then the others, answering each, and
     * prints a checksum.
     */
    public static final class LastFirst {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            Comm w = MPI.COMM_WORLD;
            int n = Integer.parseInt(args[0]);
            boolean probe = args[1].equals("probe");
            int[] buf = new int[1];
            if (w.getRank() == 0) {
                if (probe) {
                    w.probe(1, 2);
                }
                w.recv(buf, 1, MPI.INT, 1, 2);
                long sum = buf[0];
                for (int i = 0; i < n; i++) {
                    w.recv(buf, 1, MPI.INT, 1, 1);
                    checkEq(i, buf[0], "message " + i);
                    sum = sum * 31 + buf[0];
                    w.send(buf, 1, MPI.INT, 1, 3);
                }
                System.out.println("checksum " + sum);
            } else {
                for (int i = 0; i < n; i++) {
                    buf[0] = i;
                    w.send(buf, 1, MPI.INT, 0, 1);
                }
                buf[0] = -1;
                w.send(buf, 1, MPI.INT, 0, 2);
                for (int i = 0; i < n; i++) {
                    w.recv(buf, 1, MPI.INT, 0, 3);
                    checkEq(i, buf[0], "answer " + i);
                }
            }
            MPI.Finalize();
        }
    }
}
