package mpi.conformance.pt2pt;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rewind.runtime.JobResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.conformance.Jobs;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Tag;

/**
 * Matching rules, property-based: senders send random tag sequences to rank 0, which receives them
 * with randomly chosen wildcards. Every message must be received exactly once, and a receive must get
 * the oldest not-yet-received message of its source that matches it (non-overtaking).
 */
@Tag("conformance")
class MatchingPropertyTest {

    /** "tags of sender 1;tags of sender 2;...|seed", tags comma-separated. */
    @Provide
    Arbitrary<String> schedules() {
        Arbitrary<String> sender = Arbitraries.integers()
                .between(0, 3)
                .list()
                .ofMaxSize(12)
                .map(l -> String.join(",", l.stream().map(String::valueOf).toList()));
        return sender.list().ofMinSize(1).ofMaxSize(3).flatMap(senders -> Arbitraries.longs()
                .map(seed -> String.join(";", senders) + "|" + seed));
    }

    @Property(tries = 40)
    void everyMessageIsReceivedOnceAndInChannelOrder(@ForAll("schedules") String schedule) {
        int senders = schedule.substring(0, schedule.indexOf('|')).split(";", -1).length;
        JobResult r = Jobs.run(Matcher.class, senders + 1, schedule);
        assertTrue(r.ok(), () -> schedule + "\n" + r.describeFailures());
    }

    public static final class Matcher {
        public static void main(String[] args) throws MPIException {
            MPI.Init(args);
            String[] parts = args[0].split("\\|");
            String[] senderTags = parts[0].split(";", -1);
            int me = MPI.COMM_WORLD.getRank();
            List<List<Integer>> tags = new ArrayList<>();
            for (String s : senderTags) {
                List<Integer> t = new ArrayList<>();
                if (!s.isEmpty()) {
                    for (String x : s.split(",")) {
                        t.add(Integer.parseInt(x));
                    }
                }
                tags.add(t);
            }
            if (me > 0) {
                List<Integer> mine = tags.get(me - 1);
                for (int seq = 0; seq < mine.size(); seq++) {
                    MPI.COMM_WORLD.send(new int[] {me, seq}, 2, MPI.INT, 0, mine.get(seq));
                }
            } else {
                receiveAll(tags, new Random(Long.parseLong(parts[1])));
            }
            MPI.Finalize();
        }

        private static void receiveAll(List<List<Integer>> tags, Random random) throws MPIException {
            // remaining.get(s) = sequence numbers of sender s+1 not received yet, in send order
            List<List<Integer>> remaining = new ArrayList<>();
            int total = 0;
            for (List<Integer> t : tags) {
                List<Integer> seqs = new ArrayList<>();
                for (int i = 0; i < t.size(); i++) {
                    seqs.add(i);
                }
                remaining.add(seqs);
                total += t.size();
            }
            for (int k = 0; k < total; k++) {
                // Pick a pattern that some remaining message satisfies, so the receive cannot hang.
                int s;
                do {
                    s = random.nextInt(remaining.size());
                } while (remaining.get(s).isEmpty());
                int seqPick =
                        remaining.get(s).get(random.nextInt(remaining.get(s).size()));
                int source = random.nextBoolean() ? MPI.ANY_SOURCE : s + 1;
                int tag = random.nextBoolean() ? MPI.ANY_TAG : tags.get(s).get(seqPick);
                int[] m = new int[2];
                Status st = MPI.COMM_WORLD.recv(m, 2, MPI.INT, source, tag);
                int from = m[0];
                int seq = m[1];
                Jobs.checkEq(from, st.getSource(), "status source");
                Jobs.check(source == MPI.ANY_SOURCE || source == from, "source matches the pattern");
                int actualTag = tags.get(from - 1).get(seq);
                Jobs.checkEq(actualTag, st.getTag(), "status tag");
                Jobs.check(tag == MPI.ANY_TAG || tag == actualTag, "tag matches the pattern");
                List<Integer> left = remaining.get(from - 1);
                Jobs.check(left.contains(seq), "message " + from + "/" + seq + " received twice");
                for (int earlier : left) {
                    if (earlier >= seq) {
                        break;
                    }
                    boolean matches = tag == MPI.ANY_TAG || tags.get(from - 1).get(earlier) == tag;
                    Jobs.check(!matches, "message " + from + "/" + seq + " overtook " + from + "/" + earlier);
                }
                left.remove(Integer.valueOf(seq));
            }
            Jobs.check(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "no message left over");
        }
    }
}
