package io.rewind.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

/**
 * The unexpected queue finds what one list scanned in arrival order finds: random arrivals, receives,
 * probes and removals on a few contexts, sources, tags and iteration ids, checked step by step against
 * that list (the queue Rewind had before it kept one per source).
 */
class UnexpectedQueueTest {
    private static final int ANY_SOURCE = Constants.ANY_SOURCE;
    private static final int ANY_TAG = Constants.ANY_TAG;

    sealed interface Op permits Arrive, Receive, Probe, RemoveOne {}

    record Arrive(int context, int source, int tag, int iteration) implements Op {}

    /** A receive (or matched probe) that takes the frame; {@code bySequence} also names the frame's sequence. */
    record Receive(int context, int source, int tag, int iteration, boolean bySequence) implements Op {}

    record Probe(int context, int source, int tag, int iteration) implements Op {}

    /** Removes the {@code index}-th queued frame (modulo the count), as a withdrawn send does. */
    record RemoveOne(int index) implements Op {}

    @Provide
    Arbitrary<List<Op>> programs() {
        Arbitrary<Integer> context = Arbitraries.integers().between(0, 2);
        Arbitrary<Integer> source = Arbitraries.integers().between(0, 3);
        Arbitrary<Integer> wantSource =
                Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(ANY_SOURCE)), Tuple.of(3, source));
        Arbitrary<Integer> tag = Arbitraries.integers().between(0, 2);
        Arbitrary<Integer> wantTag = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(ANY_TAG)), Tuple.of(3, tag));
        Arbitrary<Integer> iteration = Arbitraries.integers().between(0, 1);
        Arbitrary<Op> arrive =
                Combinators.combine(context, source, tag, iteration).as(Arrive::new);
        Arbitrary<Op> receive = Combinators.combine(
                        context, wantSource, wantTag, iteration, Arbitraries.of(true, false))
                .as(Receive::new);
        Arbitrary<Op> probe =
                Combinators.combine(context, wantSource, wantTag, iteration).as(Probe::new);
        Arbitrary<Op> remove = Arbitraries.integers().between(0, 50).map(RemoveOne::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(6, arrive), Tuple.of(4, receive), Tuple.of(2, probe), Tuple.of(1, remove))
                .list()
                .ofMinSize(1)
                .ofMaxSize(120);
    }

    @Property(tries = 300)
    void findsWhatOneListInArrivalOrderFinds(@ForAll("programs") List<Op> program) {
        UnexpectedQueue queue = new UnexpectedQueue();
        List<Frame> model = new ArrayList<>();
        long sequence = 0;
        for (Op op : program) {
            switch (op) {
                case Arrive a -> {
                    Frame f = frame(a.context(), a.source(), a.tag(), a.iteration(), ++sequence);
                    queue.add(f);
                    model.add(f);
                }
                case Receive r -> {
                    // With bySequence, the receive names the sequence of the model's oldest match, if any.
                    Frame expected = oldest(model, r.context(), r.source(), r.tag(), r.iteration(), -1);
                    long required = r.bySequence() && expected != null ? expected.sequence : -1;
                    Frame taken = queue.removeFirst(r.context(), r.source(), r.tag(), 0, r.iteration(), required);
                    assertSame(expected, taken, r.toString());
                    model.remove(expected);
                }
                case Probe p -> assertSame(
                        oldest(model, p.context(), p.source(), p.tag(), p.iteration(), -1),
                        queue.first(p.context(), p.source(), p.tag(), 0, p.iteration(), -1),
                        p.toString());
                case RemoveOne r -> {
                    if (!model.isEmpty()) {
                        Frame f = model.remove(r.index() % model.size());
                        assertSame(f, queue.find(f.sourceWorld, f.context, f.sequence));
                        assertTrue(queue.remove(f));
                        assertFalse(queue.contains(f));
                    }
                }
            }
            assertEquals(model.size(), queue.size());
            assertEquals(8L * model.size(), queue.bytes());
            assertEquals(model, queue.inArrivalOrder());
        }
    }

    @Test
    void anySourceTakesTheFrameThatArrivedFirstAcrossSources() {
        UnexpectedQueue queue = new UnexpectedQueue();
        Frame fromTwo = frame(0, 2, 5, 0, 1);
        Frame fromOne = frame(0, 1, 5, 0, 2);
        Frame fromTwoAgain = frame(0, 2, 5, 0, 3);
        queue.add(fromTwo);
        queue.add(fromOne);
        queue.add(fromTwoAgain);
        assertSame(fromTwo, queue.removeFirst(0, ANY_SOURCE, ANY_TAG, 0, 0, -1), "not the lowest source's frame");
        assertSame(fromOne, queue.removeFirst(0, 1, 5, 0, 0, -1), "a named source looks at its own frames only");
        assertSame(fromTwoAgain, queue.removeFirst(0, ANY_SOURCE, 5, 0, 0, -1));
        assertNull(queue.removeFirst(0, ANY_SOURCE, ANY_TAG, 0, 0, -1));
        assertTrue(queue.isEmpty());
    }

    @Test
    void wildcardReceivesFindEveryTagAcrossManyTagsComingAndGoing() {
        UnexpectedQueue queue = new UnexpectedQueue();
        List<Frame> waiting = new ArrayList<>();
        long sequence = 0;
        // A tag per iteration, as programs that tag by iteration do: most are taken at once, every
        // tenth waits, so empty tag lists pile up and are swept while others still hold frames.
        for (int tag = 0; tag < 1000; tag++) {
            Frame f = frame(0, tag % 7, tag, 0, ++sequence);
            queue.add(f);
            if (tag % 10 == 0) {
                waiting.add(f);
            } else {
                assertSame(f, queue.removeFirst(0, ANY_SOURCE, tag, 0, 0, -1));
            }
        }
        assertEquals(waiting.size(), queue.size());
        for (Frame f : waiting) {
            assertNull(queue.first(0, ANY_SOURCE, f.tag + 1, 0, 0, -1), "tag " + (f.tag + 1) + " was taken");
            assertSame(f, queue.removeFirst(0, ANY_SOURCE, f.tag, 0, 0, -1), "tag " + f.tag);
        }
        assertTrue(queue.isEmpty());
        Frame again = frame(0, 3, 10, 0, ++sequence);
        queue.add(again);
        assertSame(again, queue.removeFirst(0, ANY_SOURCE, 10, 0, 0, -1), "a tag used before, after sweeps");
    }

    @Test
    void aSourceThatIsNoRankFindsNothing() {
        UnexpectedQueue queue = new UnexpectedQueue();
        queue.add(frame(0, 0, 0, 0, 1));
        assertNull(queue.first(0, -2, ANY_TAG, 0, 0, -1));
        assertNull(queue.first(0, 7, ANY_TAG, 0, 0, -1));
        assertNull(queue.first(3, ANY_SOURCE, ANY_TAG, 0, 0, -1), "another context");
    }

    @Test
    void clearEmptiesEveryQueue() {
        UnexpectedQueue queue = new UnexpectedQueue();
        queue.add(frame(0, 0, 0, 0, 1));
        queue.add(frame(1, 3, 0, 0, 2));
        queue.clear();
        assertEquals(0, queue.size());
        assertEquals(0, queue.bytes());
        assertNull(queue.first(0, ANY_SOURCE, ANY_TAG, 0, 0, -1));
        Frame again = frame(1, 3, 0, 0, 3);
        queue.add(again);
        assertSame(again, queue.first(1, 3, 0, 0, 0, -1));
    }

    /** The oldest frame of {@code model} (arrival order) that the envelope accepts, or null. */
    private static Frame oldest(List<Frame> model, int context, int source, int tag, int iteration, long sequence) {
        for (Iterator<Frame> it = model.iterator(); it.hasNext(); ) {
            Frame f = it.next();
            if (f.matches(context, source, tag, 0, iteration) && (sequence < 0 || f.sequence == sequence)) {
                return f;
            }
        }
        return null;
    }

    /** An 8-byte frame; its world rank is its source plus 10, so the two differ as in a sub-communicator. */
    private static Frame frame(int context, int source, int tag, int iteration, long sequence) {
        Frame f = new Frame(
                context, source, source + 10, 0, tag, sequence, 0, MemorySegment.ofArray(new long[1]), 0, 8, null);
        f.setPattern(0, iteration);
        return f;
    }
}
