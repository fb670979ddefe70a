package mpi.conformance;

import java.util.Arrays;
import java.util.TreeSet;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.AnnotationConsumer;

/** Supplies the rank counts of {@link RankCounts}: the given ones, plus the full set in the slow tier. */
public final class RankCountsProvider implements ArgumentsProvider, AnnotationConsumer<RankCounts> {
    /** Every program of the suite runs at these sizes in the slow tier. */
    static final int[] FULL = {1, 2, 3, 4, 8};

    private int[] counts;
    private int min;

    @Override
    public void accept(RankCounts annotation) {
        this.counts = annotation.value();
        this.min = annotation.min();
    }

    @Override
    public Stream<? extends Arguments> provideArguments(ExtensionContext context) {
        TreeSet<Integer> sizes = new TreeSet<>();
        Arrays.stream(counts).forEach(sizes::add);
        if ("all".equals(System.getProperty("rewind.conformance.ranks"))) {
            IntStream.of(FULL).filter(n -> n >= min).forEach(sizes::add);
        }
        return sizes.stream().map(Arguments::of);
    }
}
