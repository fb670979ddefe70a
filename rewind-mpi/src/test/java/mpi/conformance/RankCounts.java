package mpi.conformance;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * The numbers of ranks a parameterised conformance test runs its program at. The fast tier runs the
 * sizes given here; the slow tier ({@code -Drewind.conformance.ranks=all}) runs every program at 1, 2,
 * 3, 4 and 8 ranks as well (those not below {@link #min()}), so each program is checked at every size
 * the suite promises without making every build pay for it.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ArgumentsSource(RankCountsProvider.class)
public @interface RankCounts {
    /** The sizes of the fast tier. */
    int[] value();

    /** The smallest size the program works at. */
    int min() default 1;
}
