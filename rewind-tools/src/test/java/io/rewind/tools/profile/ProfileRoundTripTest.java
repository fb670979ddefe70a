package io.rewind.tools.profile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class ProfileRoundTripTest {

    /** Whatever the writer produces, the reader returns the same traffic, timing and self-sends. */
    @Property(tries = 50)
    void writeThenReadKeepsEverything(
            @ForAll @IntRange(min = 1, max = 40) int ranks,
            @ForAll @IntRange(min = 0, max = 200) int entries,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        CommMatrix.Builder p2p = new CommMatrix.Builder(ranks);
        CommMatrix.Builder coll = new CommMatrix.Builder(ranks);
        for (int i = 0; i < entries; i++) {
            (random.nextBoolean() ? p2p : coll)
                    .add(
                            random.nextInt(ranks),
                            random.nextInt(ranks),
                            random.nextLong(0, Long.MAX_VALUE / 1024),
                            random.nextInt(0, 1000));
        }
        double[] times = new double[ranks];
        for (int r = 0; r < ranks; r++) {
            times[r] = random.nextBoolean() ? Double.NaN : random.nextDouble() * 1e4;
        }
        CommProfile original = new CommProfile(ranks, p2p.build(), coll.build(), times, java.util.List.of());
        CommProfile read = ProfileReader.parse(ProfileWriter.toText(original), "round-trip");
        for (Traffic t : new Traffic[] {Traffic.P2P, Traffic.COLLECTIVE}) {
            CommMatrix a = original.traffic(t);
            CommMatrix b = read.traffic(t);
            assertEquals(a.channelCount(), b.channelCount());
            for (int s = 0; s < ranks; s++) {
                assertEquals(a.selfBytes(s), b.selfBytes(s));
                for (int c = a.firstChannel(s); c < a.endChannel(s); c++) {
                    assertEquals(a.bytesOf(c), b.bytes(s, a.destinationOf(c)));
                    assertEquals(a.messagesOf(c), b.messages(s, a.destinationOf(c)));
                }
            }
        }
        assertArrayEquals(original.rankTimeSeconds(), read.rankTimeSeconds());
    }
}
