package io.rewind.ft.piggyback;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeterminantStoreTest {
    private static Determinant wildcard(int origin, int incarnation, long index, long source) {
        return new Determinant(origin, incarnation, Determinant.WILDCARD, index, new long[] {source, 7, index + 1});
    }

    private static List<Determinant> decode(long[] words) {
        return words == null ? List.of() : DeterminantStore.decode(words);
    }

    @Test
    void aDeterminantGoesOnceToEveryOtherRankAndNeverBackToItsOrigin() {
        DeterminantStore store = new DeterminantStore(0, 3);
        Determinant d = wildcard(0, 0, 0, 2);
        store.made(d);
        assertEquals(List.of(d), decode(store.piggybackFor(1)));
        assertNull(store.piggybackFor(1), "sent once per destination");
        assertEquals(List.of(d), decode(store.piggybackFor(2)));

        DeterminantStore atOne = new DeterminantStore(1, 3);
        atOne.received(DeterminantStore.encode(List.of(d)));
        assertNull(atOne.piggybackFor(0), "rank 0's own determinant is not sent back to it");
        assertEquals(List.of(d), decode(atOne.piggybackFor(2)), "passed on to whoever depends on rank 1");
        assertEquals(List.of(d), decode(atOne.of(0)), "and returned to rank 0 when it restarts");
        assertEquals(3, store.figures().length);
        assertEquals(1, store.figures()[0]);
        assertEquals(2, store.figures()[1]);
    }

    @Test
    void onlyWhatCameSinceTheLastFrameIsCarried() {
        DeterminantStore store = new DeterminantStore(0, 2);
        store.made(wildcard(0, 0, 0, 1));
        store.piggybackFor(1);
        Determinant second = wildcard(0, 0, 1, 1);
        store.made(second);
        assertEquals(List.of(second), decode(store.piggybackFor(1)));
    }

    @Test
    void aNewerIncarnationsOutcomeReplacesAnOlderOneAndIsSentAgain() {
        DeterminantStore store = new DeterminantStore(1, 3);
        Determinant old = wildcard(0, 0, 4, 2);
        Determinant redone = wildcard(0, 1, 4, 1);
        store.received(DeterminantStore.encode(List.of(old)));
        assertEquals(List.of(old), decode(store.piggybackFor(2)));
        store.received(DeterminantStore.encode(List.of(redone)));
        store.received(DeterminantStore.encode(List.of(old))); // a late copy of the old one changes nothing
        assertEquals(List.of(redone), decode(store.of(0)));
        assertEquals(List.of(redone), decode(store.piggybackFor(2)));
        assertEquals(1, store.size());
    }

    @Test
    void aRestartedPeerIsSentEverythingAgain() {
        DeterminantStore store = new DeterminantStore(0, 3);
        Determinant mine = wildcard(0, 0, 0, 1);
        Determinant two = wildcard(2, 0, 0, 0);
        store.made(mine);
        store.received(DeterminantStore.encode(List.of(two)));
        store.piggybackFor(1);
        assertNull(store.piggybackFor(1));
        store.peerRestarted(1);
        assertEquals(List.of(mine, two), decode(store.piggybackFor(1)));
    }

    @Test
    void determinantsBeforeTheOldestKeptLineOfTheirRankAreDropped() {
        DeterminantStore store = new DeterminantStore(0, 3);
        for (int i = 0; i < 5; i++) {
            store.made(wildcard(0, 0, i, 1));
            store.received(
                    DeterminantStore.encode(List.of(new Determinant(2, 0, Determinant.POLL, i, new long[] {i}))));
        }
        store.trim(rank -> rank == 0 ? new long[] {3, 0} : rank == 2 ? new long[] {0, 4} : null);
        List<Determinant> mine = decode(store.of(0));
        assertEquals(2, mine.size());
        assertEquals(3, mine.get(0).index());
        List<Determinant> two = decode(store.of(2));
        assertEquals(1, two.size());
        assertEquals(4, two.get(0).index());
        store.trim(rank -> null); // unknown: nothing goes
        assertEquals(3, store.size());
    }

    @Test
    void savedDeterminantsComeBackInARestartedIncarnation() {
        DeterminantStore store = new DeterminantStore(1, 3);
        Determinant a = wildcard(0, 0, 0, 2);
        Determinant b = new Determinant(2, 1, Determinant.POLL, 9, new long[] {1, 2, 3, 4});
        store.received(DeterminantStore.encode(List.of(a, b)));
        DeterminantStore restarted = new DeterminantStore(1, 3);
        restarted.load(store.save());
        assertEquals(List.of(a), decode(restarted.of(0)));
        assertEquals(List.of(b), decode(restarted.of(2)));
    }

    @Test
    void wordsThatAreNotDeterminantsAreRefusedWhole() {
        DeterminantStore store = new DeterminantStore(1, 3);
        long[] good = DeterminantStore.encode(List.of(wildcard(0, 0, 0, 2)));
        long[] cut = java.util.Arrays.copyOf(good, good.length - 1);
        assertThrows(IllegalArgumentException.class, () -> store.received(cut));
        long[] badKind = good.clone();
        badKind[1] = (9L << 32) | 3;
        assertThrows(IllegalArgumentException.class, () -> store.received(badKind));
        long[] huge = good.clone();
        huge[1] = ((long) Determinant.WILDCARD << 32) | 0xffffffffL;
        assertThrows(IllegalArgumentException.class, () -> store.received(huge));
        assertEquals(0, store.size());
        assertArrayEquals(new long[0], store.of(0));
    }
}
